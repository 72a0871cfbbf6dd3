// swift-tools-version:6.0
import Foundation
import PackageDescription

/// `ECBRATES_OPTIMIZE_TESTED=1` (scripts/test sets it) compiles the code under test with -O in
/// the debug build the tests run: nearly all of the suite's CPU is that code (in the test
/// process and in the `ecbrates` processes it starts), several times slower at -Onone. The test
/// targets stay -Onone (Swift Testing's macros do not build with -O). Unset, as for a package
/// that depends on this one, no unsafe flag is declared.
let optimizeTested = ProcessInfo.processInfo.environment["ECBRATES_OPTIMIZE_TESTED"] == "1"
let tested: [SwiftSetting] = optimizeTested ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

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
        // libxml2's headers, through Sources/CLibXML2/include/libxml, a link to where Debian's
        // libxml2-dev puts them (/usr/include/libxml2/libxml); the library itself is loaded with
        // dlopen when a file is first read (a C target, not a system library with pkg-config,
        // whose -lxml2 would make every start of ecbrates load libxml2 and ICU).
        .target(name: "CLibXML2"),
        // libcurl's headers; the library is loaded with dlopen when a URL is fetched.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // zlib's headers; the library is loaded with dlopen when a .gz or .zip file is read.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libmicrohttpd's headers; the library is loaded with dlopen when `ecbrates serve` starts.
        .systemLibrary(
            name: "CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // libedit's readline-compatible functions, declared in a shim (no -dev package): the
        // library is loaded with dlopen when an interactive shell starts.
        .systemLibrary(name: "CEdit"),
        // glibc's <malloc.h>, for the executable's malloc settings (no library to link).
        .systemLibrary(name: "CMalloc"),
        .target(name: "ManagedStore", dependencies: ["CSQLite"], swiftSettings: tested),
        .target(name: "EurofxrefFeed", dependencies: ["CLibXML2", "CCurl", "CZlib"], swiftSettings: tested),
        .target(name: "ECBRates", dependencies: ["ManagedStore", "EurofxrefFeed"], swiftSettings: tested),
        .target(name: "ECBRatesServer", dependencies: ["ECBRates", "EurofxrefFeed", "CMicroHTTPD", "CZlib"], swiftSettings: tested),
        .target(name: "ECBRatesCLI", dependencies: ["ECBRates", "ECBRatesServer", "EurofxrefFeed", "CEdit"], swiftSettings: tested),
        .executableTarget(name: "ecbrates", dependencies: ["ECBRatesCLI", "CMalloc"], swiftSettings: tested),
        .executableTarget(name: "ecbrates-bench", dependencies: ["ManagedStore", "EurofxrefFeed", "ECBRates", "CSQLite"]),
        .testTarget(name: "ManagedStoreTests", dependencies: ["ManagedStore", "CSQLite", "TestSupport", "managedstore-migration-helper"]),
        // A child process for the migration tests (a migration killed at seeded moments).
        .executableTarget(name: "managedstore-migration-helper", dependencies: ["ManagedStore"], path: "Tests/MigrationHelper"),
        .target(name: "TestSupport", path: "Tests/TestSupport", exclude: ["feed_server.py", "tls_server.py"]),
        .testTarget(name: "ECBRatesTests", dependencies: ["ECBRates", "ECBRatesCLI", "ManagedStore", "EurofxrefFeed", "TestSupport",
                                                    "CSQLite", "ecbrates", "ECBRatesServer"],
                    exclude: [
                        "Server/server_oracle.py", "Server/frankfurter_client_check.py", "Server/mcp_check.py",
                        "Server/load_check.py", "Server/access_log_check.py", "Server/mcp_http_check.py", "Server/mcp_parity_check.py", "Server/serve_process.py", "Server/mcp_fuzz_check.py", "Server/page_check.py", "Server/openapi_check.py", "Server/heavy_ranges.lua", "Deploy",
                        "answer_schema_check.py", "batch_formats_check.py", "shell_pty_check.py", "store_views_check.py", "zsh_completion_check.py",
                    ]),
        .testTarget(name: "EurofxrefFeedTests", dependencies: ["EurofxrefFeed", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
