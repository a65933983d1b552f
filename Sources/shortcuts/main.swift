import LibraryApp
import ShortcutsCLI

await ShortcutsTool.main(apps: [LibraryApp.app])
