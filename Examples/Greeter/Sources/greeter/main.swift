import IntentKit
import ShortcutsCLI

let app = IntentApp(name: "Greeter", intents: [Greet.self])
await ShortcutsTool.main(apps: [app], commandName: "greeter")
