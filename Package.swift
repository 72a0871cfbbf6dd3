// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ecbrates",
    products: [
        .library(name: "ManagedStore", targets: ["ManagedStore"]),
        .library(name: "EurofxrefFeed", targets: ["EurofxrefFeed"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "ManagedStore", dependencies: ["CSQLite"]),
        .target(name: "EurofxrefFeed", dependencies: ["CLibXML2"]),
        .executableTarget(name: "ecbrates-bench", dependencies: ["ManagedStore", "EurofxrefFeed"]),
        .testTarget(name: "ManagedStoreTests", dependencies: ["ManagedStore", "CSQLite"]),
        .testTarget(name: "EurofxrefFeedTests", dependencies: ["EurofxrefFeed"], exclude: ["Support/feed_server.py"]),
    ],
    swiftLanguageModes: [.v6]
)
