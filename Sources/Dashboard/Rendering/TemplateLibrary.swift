#if Web
    import Mustache

    /// The pages' Mustache templates, compiled into the binary (`Resources/Templates`, embedded by
    /// `Scripts/embed-resources`) and parsed once when the server starts.
    ///
    /// Every value is written with `{{name}}`, which escapes it for HTML; no template writes user
    /// data with `{{{name}}}`.
    ///
    /// ```swift
    /// let html = try TemplateLibrary().render(OverviewPage(…), template: "overview")
    /// ```
    struct TemplateLibrary: Sendable {
        private let library: MustacheLibrary

        /// Parses every template.
        ///
        /// - Throws: `MustacheTemplate.ParserError` for a template that does not parse (a mistake of this module).
        init() throws {
            var library = MustacheLibrary()
            for (path, text) in DashboardResources.files where path.hasPrefix("Templates/") && path.hasSuffix(".mustache") {
                let name = String(path.dropFirst("Templates/".count).dropLast(".mustache".count))
                try library.register(text, named: name)
            }
            self.library = library
        }

        /// Renders a model with a template (and the partials it includes).
        ///
        /// - Parameters:
        ///   - model: A struct whose properties the template reads by name.
        ///   - template: The template's name: its file name without `.mustache`.
        /// - Returns: The HTML.
        func render(_ model: Any, template: String) -> String {
            guard let html = library.render(model, withTemplate: template) else {
                preconditionFailure("no template named \(template) in Resources/Templates")
            }
            return html
        }
    }
#endif
