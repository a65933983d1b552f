import IntentKit
import ShortcutsCLI

// `greeter perform Greet name=Ada` runs the intent; `greeter extension serve` serves it to an
// installed `shortcuts` (`shortcuts extensions add PATH`), as Schemas/extension-protocol.md
// describes.
let app = IntentApp(name: "Greeter", intents: [Greet.self])
await ShortcutsTool.main(apps: [app], commandName: "greeter")
