import EurofxrefFeed
import Foundation
import ManagedStore

/// Keeps the conditional-GET validators of each URL in the store.
enum FeedStateLog {
    static func validators(for url: URL, in store: RatesStore) throws -> HTTPValidators? {
        let context = store.container.newBackgroundContext()
        let key = url.absoluteString
        return try context.performAndWait { () throws -> HTTPValidators? in
            guard let state = try context.fetch(FetchRequest<FeedState>(predicate: #Predicate { $0.url == key })).first
            else { return nil }
            return HTTPValidators(etag: state.etag, lastModified: state.lastModified)
        }
    }

    static func record(_ validators: HTTPValidators, for url: URL, in store: RatesStore) throws {
        let context = store.container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        let key = url.absoluteString
        try context.performAndWait { () throws -> Void in
            let state =
                try context.fetch(FetchRequest<FeedState>(predicate: #Predicate { $0.url == key })).first
                ?? FeedState(context: context)
            state.url = key
            state.etag = validators.etag
            state.lastModified = validators.lastModified
            state.checkedAt = Date()
            try context.save()
        }
    }
}
