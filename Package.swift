// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ecbrates",
    products: [
        .library(name: "ManagedStore", targets: ["ManagedStore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "ManagedStore", dependencies: ["CSQLite"]),
        .executableTarget(name: "ecbrates-bench", dependencies: ["ManagedStore"]),
        .testTarget(name: "ManagedStoreTests", dependencies: ["ManagedStore", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
