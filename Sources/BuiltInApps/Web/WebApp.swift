import IntentKit

/// The Web app: fetches URLs over HTTP and HTTPS, sends forms and JSON, downloads files.
///
/// ```yaml
/// steps:
///   - id: weather
///     perform: Web.GetContentsOfURL
///     with: { url: "https://api.example.com/forecast?city=Oslo" }
///   - show: "${weather.summary}"
/// ```
public enum WebApp {
    /// The app, as `shortcuts list` shows it.
    public static let app = IntentApp(name: "Web", intents: [GetContentsOfURL.self], strings: BuiltInStrings.catalog(table: "Web"))
}
