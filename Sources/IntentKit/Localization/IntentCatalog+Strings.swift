extension IntentCatalog {
    /// The strings of every app in one catalog, so that titles resolve whichever app they
    /// belong to: what `shortcuts metadata`, the MCP server and the dashboard localize with.
    ///
    /// ```swift
    /// let localization = Localization(locale: "ja", strings: catalog.mergedStrings)
    /// let metadata = Localization.$current.withValue(localization) { AppMetadata(catalog: catalog) }
    /// ```
    package var mergedStrings: StringsCatalog {
        var merged = StringsCatalog()
        for app in apps {
            for (locale, tables) in app.strings.tables {
                for (table, entries) in tables { merged.add(entries, table: table, locale: locale) }
            }
        }
        return merged
    }
}
