/// One attribute of the element being started, as libxml2's SAX2 gives it.
struct SAXAttribute {
    let localname: UnsafePointer<UInt8>?
    let prefix: UnsafePointer<UInt8>?
    let namespace: UnsafePointer<UInt8>?
    let value: UnsafeBufferPointer<UInt8>

    /// The attribute at `index` of libxml2's array of five pointers per attribute.
    init(_ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ index: Int) {
        localname = attributes[index * 5]
        prefix = attributes[index * 5 + 1]
        namespace = attributes[index * 5 + 2]
        if let start = attributes[index * 5 + 3], let end = attributes[index * 5 + 4] {
            value = UnsafeBufferPointer(start: start, count: end - start)
        } else {
            value = UnsafeBufferPointer(start: nil, count: 0)
        }
    }

    /// `prefix:name`, or `name`.
    var qualifiedName: String {
        let name = localname.map { String(cString: $0) } ?? ""
        return prefix.map { String(cString: $0) + ":" + name } ?? name
    }
}
