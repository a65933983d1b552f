#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects the `@Parameter` wrappers an intent's `init()` creates, in the order it creates
/// them, on the current thread.
///
/// Reflecting every fresh instance with `Mirror` costs microseconds (field types are
/// demangled each time); an intent performed a million times in a `repeat` needs its
/// parameters in nanoseconds. ``IntentReflection/instantiate(_:)`` checks what was collected
/// against the type's reflected prototype and falls back to `Mirror` whenever they differ.
enum ParameterCollector {
    final class Collection {
        var wrappers: [any AnyIntentParameter] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` (a synchronous `init()`) and returns its result with the wrappers it created.
    static func collect<Result>(_ body: () -> Result) -> (Result, [any AnyIntentParameter]) {
        let collection = Collection()
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(collection).toOpaque())
        let result = withExtendedLifetime(collection) { body() }
        pthread_setspecific(key, previous)
        return (result, collection.wrappers)
    }

    /// Called by every new `@Parameter` wrapper.
    static func record(_ wrapper: any AnyIntentParameter) {
        guard let pointer = pthread_getspecific(key) else { return }
        Unmanaged<Collection>.fromOpaque(pointer).takeUnretainedValue().wrappers.append(wrapper)
    }
}
