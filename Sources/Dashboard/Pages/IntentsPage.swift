#if Web
    import IntentKit

    /// `/intents`: the installed apps as their static metadata describes them (`shortcuts
    /// metadata`): each app's intents with their parameters, entities with their properties, enums
    /// with their cases, and App Shortcut phrases, in the dashboard's language.
    struct IntentsPage: Sendable {
        struct Intent: Sendable {
            var name: String
            var title: String
            var description: String?
            var summary: String
            var result: String
            var parameters: [AppMetadata.Parameter]
            var hasParameters: Bool
        }

        struct App: Sendable {
            var name: String
            var anchor: String
            var intents: [Intent]
            var hasIntents: Bool
            var entities: [AppMetadata.Entity]
            var hasEntities: Bool
            var enums: [AppMetadata.Enumeration]
            var hasEnums: Bool
            var shortcuts: [AppMetadata.Shortcut]
            var hasShortcuts: Bool
        }

        var chrome: PageChrome
        var apps: [App]
        var hasApps: Bool

        static func make(site: DashboardSite, context: DashboardContext) -> IntentsPage {
            let catalog = site.configuration.catalog
            let metadata = Localization.$current.withValue(Localization(locale: site.configuration.locale, strings: catalog.mergedStrings)) {
                AppMetadata(catalog: catalog)
            }
            let apps = metadata.apps.map { app in
                let intents = app.intents.map { intent in
                    var result = intent.result.type
                    if let valueType = intent.result.valueType { result += " (\(valueType))" }
                    if let opened = intent.result.opensIntent { result += ", opens \(opened)" }
                    return Intent(
                        name: intent.name, title: intent.title, description: intent.description, summary: intent.summary, result: result,
                        parameters: intent.parameters, hasParameters: !intent.parameters.isEmpty)
                }
                return App(
                    name: app.name, anchor: "app-" + app.name, intents: intents, hasIntents: !intents.isEmpty, entities: app.entities,
                    hasEntities: !app.entities.isEmpty, enums: app.enums, hasEnums: !app.enums.isEmpty, shortcuts: app.shortcuts,
                    hasShortcuts: !app.shortcuts.isEmpty)
            }
            return IntentsPage(chrome: PageChrome(title: "Intents", section: .intents, context: context), apps: apps, hasApps: !apps.isEmpty)
        }
    }
#endif
