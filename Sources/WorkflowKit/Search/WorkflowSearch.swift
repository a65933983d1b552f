import IntentKit
import Synchronization

/// The search a program installs once for all its runners and validators, as a logging
/// backend is bootstrapped: runners and validators created without a provider use it.
///
/// ```swift
/// WorkflowSearch.bootstrap { catalog in SpotlightSearchProvider(catalog: catalog) }
/// let runner = WorkflowRunner(catalog: catalog)   // searches through SpotlightSearchProvider
/// ```
public enum WorkflowSearch {
    private static let factory = Mutex<(@Sendable (IntentCatalog) -> any WorkflowSearchProvider)?>(nil)

    /// Installs the search used by runners and validators created without one.
    ///
    /// - Parameter makeProvider: Makes the provider for a runner's or validator's apps.
    public static func bootstrap(_ makeProvider: @escaping @Sendable (IntentCatalog) -> any WorkflowSearchProvider) {
        factory.withLock { $0 = makeProvider }
    }

    /// The installed search for a set of apps.
    ///
    /// - Parameter catalog: The installed apps.
    /// - Returns: The provider, or `nil` when the program installed none (`search:` steps are then errors).
    public static func provider(for catalog: IntentCatalog) -> (any WorkflowSearchProvider)? {
        factory.withLock { $0 }?(catalog)
    }
}
