/// The pointers libxml2's name dictionary gives the names the rules match.
struct InternedNames {
    var cube: UnsafePointer<UInt8>?
    var time: UnsafePointer<UInt8>?
    var currency: UnsafePointer<UInt8>?
    var rate: UnsafePointer<UInt8>?

    init() {}

    init(_ parser: SAXPushParser) {
        cube = parser.intern("Cube")
        time = parser.intern("time")
        currency = parser.intern("currency")
        rate = parser.intern("rate")
    }
}
