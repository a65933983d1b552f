import BuiltInApps
import JournalApp
import LibraryApp
import ShortcutsCLI
import TagsApp

await ShortcutsTool.main(apps: BuiltInApps.all + [LibraryApp.app, TagsApp.app, JournalApp.app])
