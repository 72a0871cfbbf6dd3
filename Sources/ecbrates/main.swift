import ECBRatesCLI
import Foundation

// The executable is only this: everything else is in ECBRatesCLI, where tests can reach it.
exit(await CLI.main(Array(CommandLine.arguments.dropFirst())))
