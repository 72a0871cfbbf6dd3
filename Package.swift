// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ecbrates",
    products: [
        .library(name: "ManagedStore", targets: ["ManagedStore"]),
        .library(name: "EurofxrefFeed", targets: ["EurofxrefFeed"]),
        .library(name: "ECBRates", targets: ["ECBRates"]),
        .executable(name: "ecbrates", targets: ["ecbrates"]),
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
        // glibc's <malloc.h>, for the executable's malloc settings (no library to link).
        .systemLibrary(name: "CMalloc"),
        .target(name: "ManagedStore", dependencies: ["CSQLite"]),
        .target(name: "EurofxrefFeed", dependencies: ["CLibXML2"]),
        .target(name: "ECBRates", dependencies: ["ManagedStore", "EurofxrefFeed"]),
        .target(name: "ECBRatesCLI", dependencies: ["ECBRates", "EurofxrefFeed", "ManagedStore"]),
        .executableTarget(name: "ecbrates", dependencies: ["ECBRatesCLI", "CMalloc"]),
        .executableTarget(name: "ecbrates-bench", dependencies: ["ManagedStore", "EurofxrefFeed", "ECBRates"]),
        .testTarget(name: "ManagedStoreTests", dependencies: ["ManagedStore", "CSQLite"]),
        .target(name: "TestSupport", path: "Tests/TestSupport", exclude: ["feed_server.py"]),
        .testTarget(name: "ECBRatesTests", dependencies: ["ECBRates", "ECBRatesCLI", "ManagedStore", "EurofxrefFeed", "TestSupport",
                                                    "CSQLite", "ecbrates"]),
        .testTarget(name: "EurofxrefFeedTests", dependencies: ["EurofxrefFeed", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
