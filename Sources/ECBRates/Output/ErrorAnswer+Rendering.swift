extension ErrorAnswer: RenderableAnswer {
    /// `Error: …`'s message, on one line.
    public var text: String { message + "\n" }

    /// `{"error":"…","exitStatus":65}`
    public var json: JSONText { .object([("error", .string(message)), ("exitStatus", .number(Double(status)))]) }

    public var csvRows: [[String]] { [["error", "exit_status"], [message, "\(status)"]] }
}
