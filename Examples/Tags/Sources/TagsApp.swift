import Foundation
import IntentKit
import SpotlightKit

/// Tags: the photo-tagging app of the Core Data Spotlight talk. Photos and tags live in
/// `$SHORTCUTS_HOME/tags.sqlite`; ``TagsSpotlightDelegate`` indexes them in the `tags` index,
/// with each photo's tags as keywords, and ``FindPhotos`` searches that index as the app's
/// search field does.
public enum TagsApp {
    /// The name of the Tags search index.
    public static let searchIndexName = "tags"

    /// The Tags search index, kept by ``TagsSpotlightDelegate``.
    public static let searchIndex = AppSearchIndex(name: searchIndexName, entityTypes: [PhotoEntity.self, TagEntity.self]) {
        try TagsSpotlightDelegate.shared()
    }

    /// The app, as the engine and the command line install it.
    public static let app = IntentApp(
        name: "Tags",
        intents: [AddPhoto.self, TagPhoto.self, FindPhotos.self],
        entities: [PhotoEntity.self, TagEntity.self],
        features: [searchIndex])
}
