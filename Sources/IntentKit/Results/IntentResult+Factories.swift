// The `.result(...)` factories, one per combination of value, intent to open, dialog and snippet.
extension IntentResult {
    /// A result with nothing.
    public static func result() -> Self
    where Self == IntentResultContainer<Never, Never, _NoSnippet, Never> {
        IntentResultContainer()
    }

    /// A result with a value.
    public static func result<V: IntentValueConvertible>(value: V) -> Self
    where Self == IntentResultContainer<V, Never, _NoSnippet, Never> {
        IntentResultContainer(value: value.intentValue)
    }

    /// A result with an intent to open.
    public static func result<O: AppIntent>(opensIntent intent: O) -> Self
    where Self == IntentResultContainer<Never, O, _NoSnippet, Never> {
        IntentResultContainer(opensIntent: intent)
    }

    /// A result with an intent to open.
    public static func result<O: AppIntent>(openIntent intent: O) -> Self
    where Self == IntentResultContainer<Never, O, _NoSnippet, Never> {
        IntentResultContainer(opensIntent: intent)
    }

    /// A result with a value, an intent to open.
    public static func result<V: IntentValueConvertible, O: AppIntent>(value: V, opensIntent intent: O) -> Self
    where Self == IntentResultContainer<V, O, _NoSnippet, Never> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent)
    }

    /// A result with a value, an intent to open.
    public static func result<V: IntentValueConvertible, O: AppIntent>(value: V, openIntent intent: O) -> Self
    where Self == IntentResultContainer<V, O, _NoSnippet, Never> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent)
    }

    /// A result with a dialog.
    public static func result(dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<Never, Never, _NoSnippet, IntentDialog> {
        IntentResultContainer(dialog: dialog)
    }

    /// A result with a value, a dialog.
    public static func result<V: IntentValueConvertible>(value: V, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<V, Never, _NoSnippet, IntentDialog> {
        IntentResultContainer(value: value.intentValue, dialog: dialog)
    }

    /// A result with an intent to open, a dialog.
    public static func result<O: AppIntent>(opensIntent intent: O, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<Never, O, _NoSnippet, IntentDialog> {
        IntentResultContainer(opensIntent: intent, dialog: dialog)
    }

    /// A result with an intent to open, a dialog.
    public static func result<O: AppIntent>(openIntent intent: O, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<Never, O, _NoSnippet, IntentDialog> {
        IntentResultContainer(opensIntent: intent, dialog: dialog)
    }

    /// A result with a value, an intent to open, a dialog.
    public static func result<V: IntentValueConvertible, O: AppIntent>(value: V, opensIntent intent: O, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<V, O, _NoSnippet, IntentDialog> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, dialog: dialog)
    }

    /// A result with a value, an intent to open, a dialog.
    public static func result<V: IntentValueConvertible, O: AppIntent>(value: V, openIntent intent: O, dialog: IntentDialog) -> Self
    where Self == IntentResultContainer<V, O, _NoSnippet, IntentDialog> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, dialog: dialog)
    }

    /// A result with a snippet.
    public static func result<C: SnippetView>(@SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, Never, C, Never> {
        IntentResultContainer(snippet: content())
    }

    /// A result with a value, a snippet.
    public static func result<V: IntentValueConvertible, C: SnippetView>(value: V, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<V, Never, C, Never> {
        IntentResultContainer(value: value.intentValue, snippet: content())
    }

    /// A result with an intent to open, a snippet.
    public static func result<O: AppIntent, C: SnippetView>(opensIntent intent: O, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, O, C, Never> {
        IntentResultContainer(opensIntent: intent, snippet: content())
    }

    /// A result with an intent to open, a snippet.
    public static func result<O: AppIntent, C: SnippetView>(openIntent intent: O, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, O, C, Never> {
        IntentResultContainer(opensIntent: intent, snippet: content())
    }

    /// A result with a value, an intent to open, a snippet.
    public static func result<V: IntentValueConvertible, O: AppIntent, C: SnippetView>(
        value: V, opensIntent intent: O, @SnippetViewBuilder content: () -> C
    ) -> Self
    where Self == IntentResultContainer<V, O, C, Never> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, snippet: content())
    }

    /// A result with a value, an intent to open, a snippet.
    public static func result<V: IntentValueConvertible, O: AppIntent, C: SnippetView>(
        value: V, openIntent intent: O, @SnippetViewBuilder content: () -> C
    ) -> Self
    where Self == IntentResultContainer<V, O, C, Never> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, snippet: content())
    }

    /// A result with a dialog, a snippet.
    public static func result<C: SnippetView>(dialog: IntentDialog, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, Never, C, IntentDialog> {
        IntentResultContainer(dialog: dialog, snippet: content())
    }

    /// A result with a value, a dialog, a snippet.
    public static func result<V: IntentValueConvertible, C: SnippetView>(value: V, dialog: IntentDialog, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<V, Never, C, IntentDialog> {
        IntentResultContainer(value: value.intentValue, dialog: dialog, snippet: content())
    }

    /// A result with an intent to open, a dialog, a snippet.
    public static func result<O: AppIntent, C: SnippetView>(opensIntent intent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, O, C, IntentDialog> {
        IntentResultContainer(opensIntent: intent, dialog: dialog, snippet: content())
    }

    /// A result with an intent to open, a dialog, a snippet.
    public static func result<O: AppIntent, C: SnippetView>(openIntent intent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C) -> Self
    where Self == IntentResultContainer<Never, O, C, IntentDialog> {
        IntentResultContainer(opensIntent: intent, dialog: dialog, snippet: content())
    }

    /// A result with a value, an intent to open, a dialog, a snippet.
    public static func result<V: IntentValueConvertible, O: AppIntent, C: SnippetView>(
        value: V, opensIntent intent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self
    where Self == IntentResultContainer<V, O, C, IntentDialog> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, dialog: dialog, snippet: content())
    }

    /// A result with a value, an intent to open, a dialog, a snippet.
    public static func result<V: IntentValueConvertible, O: AppIntent, C: SnippetView>(
        value: V, openIntent intent: O, dialog: IntentDialog, @SnippetViewBuilder content: () -> C
    ) -> Self
    where Self == IntentResultContainer<V, O, C, IntentDialog> {
        IntentResultContainer(value: value.intentValue, opensIntent: intent, dialog: dialog, snippet: content())
    }

}
