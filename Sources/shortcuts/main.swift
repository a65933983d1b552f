import JournalApp
import LibraryApp
import ShortcutsCLI
import TagsApp

await ShortcutsTool.main(apps: [LibraryApp.app, TagsApp.app, JournalApp.app])
