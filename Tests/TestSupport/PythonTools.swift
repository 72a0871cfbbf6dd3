import Foundation

/// The Python interpreters the tests run scripts with.
public enum PythonTools {
    /// Debian's python3: the standard library only (expat, decimal, fractions, http.client).
    public static let system = URL(fileURLWithPath: "/usr/bin/python3")

    /// The virtual environment `scripts/prerequisites` makes in `.build/pyenv`, with the PyPI
    /// packages the tests drive the server with (the MCP SDK, a Frankfurter client).
    public static let withPackages = FixturePaths.root.appendingPathComponent(".build/pyenv/bin/python3")

    /// Why the packaged interpreter cannot be used, or nil when it can.
    public static var missingPackages: String? {
        FileManager.default.isExecutableFile(atPath: withPackages.path)
            ? nil
            : "\(withPackages.path) is missing: run scripts/prerequisites (it installs the MCP SDK and frankfurter)"
    }

    /// `Tests/ECBRatesTests/Server/<name>`.
    public static func serverScript(_ name: String) -> String {
        FixturePaths.root.appendingPathComponent("Tests/ECBRatesTests/Server/\(name)").path
    }
}
