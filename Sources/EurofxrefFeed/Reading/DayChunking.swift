/// What both of the ECB's formats' readers are given: where the bytes come from (for errors),
/// how many whole days make a chunk, which days to refuse, and who takes each chunk.
struct DayChunking {
    /// The file or URL, as errors name it.
    let source: String
    /// How many whole days are handed on together.
    let chunkDays: Int
    /// Why a day cannot be stored (a weekend, a holiday, the future), or `nil` to accept it.
    let dayRefusal: (@Sendable (CalendarDay) -> String?)?
    /// Takes each chunk of whole, checked days; an error it throws ends the read.
    let handler: (RateChunk) throws -> Void
}
