import Foundation

/// The JSON Schema (draft 2020-12) of each answer's JSON, as `--format json`, `/api/` and MCP's
/// `structuredContent` write it: what MCP's `outputSchema` and the OpenAPI document declare.
///
/// Each is whole on its own (no `$ref`, no `$schema` or `$id`), to be embedded as it is. An object
/// answer may carry `warnings` (``warnings``) and, asked as of a moment (`as_of`, `--as-of`), `asOf`
/// first, through every door. Exact decimals are JSON numbers, written as the ECB published them
/// or to 20 significant digits (a result keeps its trailing zeros: `100.00`): parse them as decimals.
/// `currencies` and `corrections` answer JSON arrays: MCP's `outputSchema` must be an object, so
/// before revision 2026-07-28 its `structuredContent` puts a list under the tool's name
/// (``currenciesObject``, ``correctionsObject``). The parts several schemas share are written once,
/// as internal string literals (`asOfText`, `warningsText`, `legsText`, …) that the schemas
/// interpolate (`\#(legsText)`). `Tests/ECBRatesTests/answer_schema_check.py` reads these
/// literals, resolves the interpolations alike, and validates seeded random answers against them.
public enum AnswerSchema {
    /// `rate`'s answer: one currency's rate (``rate``), or several currencies' (``rates``).
    public static let rateOrRates: JSONText = .object([("type", .string("object")), ("anyOf", .array([rate, rates]))])

    /// ``currencies`` under the name `currencies`: MCP's `structuredContent` before 2026-07-28.
    public static let currenciesObject = object(named: "currencies", currencies)

    /// ``corrections`` under the name `corrections`: MCP's `structuredContent` before 2026-07-28.
    public static let correctionsObject = object(named: "corrections", corrections)

    /// An object whose one member, `name`, is `schema`.
    public static func object(named name: String, _ schema: JSONText) -> JSONText {
        .object([
            ("type", .string("object")), ("properties", .object([(name, schema)])),
            ("required", .array([.string(name)])), ("additionalProperties", .bool(false)),
        ])
    }

    /// A schema written as JSON text, kept on one line (a JSON-RPC message is one line): the
    /// white space that starts each line dropped (JSON strings hold no line breaks), the lines of
    /// the parts it interpolates too.
    static func schema(_ text: String) -> JSONText {
        .raw(text.split(separator: "\n").map { $0.drop { $0 == " " } }.joined())
    }

    // MARK: Parts several schemas share, interpolated as `\#(name)`

    /// A currency's code: three capital letters.
    static let codeText = #"""
        {"type":"string","pattern":"^[A-Z]{3}$"}
        """#

    /// The members after `type` of a day's schema (an ISO 8601 date), without braces.
    static let dayFormatText = #"""
        "format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
        """#

    /// A day: an ISO 8601 date (`2024-05-31`).
    static let dayText = #"""
        {"type":"string",\#(dayFormatText)}
        """#

    /// The members after `type` of a moment's schema (an ISO 8601 date and time in UTC), without braces.
    static let momentFormatText = #"""
        "format":"date-time","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$"
        """#

    /// A positive exact decimal: a rate.
    static let positiveText = #"""
        {"type":"number","exclusiveMinimum":0}
        """#

    /// The members of a failure's or warning's `code` before its description (lower-case words
    /// joined by hyphens), without braces.
    static let kindFormatText = #"""
        "type":"string","pattern":"^[a-z]+(-[a-z]+)*$"
        """#

    /// An object answer's `asOf`: the moment it is as of, when asked so; its first key.
    static let asOfText = #"""
        {
          "type":"string",
          \#(momentFormatText),
          "description":"The moment answered as of, when asked with as_of (--as-of): the first key."
        }
        """#

    /// ``warning``'s text.
    static let warningText = #"""
        {
          "type":"object",
          "properties":{
            "code":{
              \#(kindFormatText),
              "description":"stale-store, incomplete-answer, missing-currency, …: a stable word to test."
            },
            "message":{"type":"string"}
          },
          "required":["code","message"],
          "additionalProperties":false
        }
        """#

    /// ``warnings``' text: every object answer's `warnings` property.
    static let warningsText = #"""
        {
          "type":"array",
          "minItems":1,
          "items":\#(warningText),
          "description":"What the reader must know although the answer stands; present only when there is any."
        }
        """#

    // MARK: Schemas

    /// The currencies in the store (`currencies`): an ARRAY, not an object.
    public static let currencies: JSONText = schema(
        #"""
        {
          "type":"array",
          "items":{
            "type":"object",
            "properties":{
              "code":\#(codeText),
              "name":{"type":"string"},
              "firstDay":\#(dayText),
              "lastDay":\#(dayText),
              "rates":{"type":"integer","minimum":1}
            },
            "required":["code","name","firstDay","lastDay","rates"],
            "additionalProperties":false
          }
        }
        """#)

    /// The corrections recorded (`corrections`): an ARRAY, not an object.
    public static let corrections: JSONText = schema(
        #"""
        {
          "type":"array",
          "items":{
            "type":"object",
            "properties":{
              "day":\#(dayText),
              "currency":\#(codeText),
              "old":\#(positiveText),
              "new":\#(positiveText),
              "correctedAt":{"type":"string",\#(momentFormatText)},
              "source":{"type":"string"}
            },
            "required":["day","currency","old","new","correctedAt","source"],
            "additionalProperties":false
          }
        }
        """#)

    /// The store's state (`status`): a `StoreStatus`; it has no `warnings`.
    public static let status: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "store":{"type":"string"},
            "storeSource":{
              "type":["string","null"],
              "enum":["option","environment","user","system",null],
              "description":"Why this store; null when not said."
            },
            "firstDay":{"type":["string","null"],\#(dayFormatText)},
            "lastDay":{"type":["string","null"],\#(dayFormatText)},
            "days":{"type":"integer","minimum":0},
            "rates":{"type":"integer","minimum":0},
            "currencies":{"type":"integer","minimum":0},
            "upToDate":{"type":"boolean"},
            "dueDay":{
              "type":"string",
              \#(dayFormatText),
              "description":"The newest business day whose rates should be out now."
            },
            "missingBusinessDays":{
              "type":"array",
              "items":\#(dayText),
              "description":"Business days after lastDay up to dueDay."
            },
            "holes":{
              "type":"array",
              "items":\#(dayText),
              "description":"Business days between firstDay and lastDay without any rate."
            },
            "ageDays":{"type":"integer","minimum":0,"description":"Calendar days from lastDay to dueDay."},
            "history":{
              "type":"object",
              "properties":{
                "complete":{"type":"boolean"},
                "shouldBegin":\#(dayText),
                "asked":{"type":"boolean"},
                "missingBusinessDays":{"type":"integer","minimum":0}
              },
              "required":["complete","shouldBegin","asked","missingBusinessDays"],
              "additionalProperties":false
            },
            "lastImport":{
              "type":["object","null"],
              "properties":{
                "source":{"type":"string"},
                "outcome":{"type":"string","enum":["running","succeeded","failed","not modified","interrupted"]},
                "startedAt":{"type":"string",\#(momentFormatText)},
                "finishedAt":{"type":["string","null"],\#(momentFormatText)},
                "rates":{"type":"integer","minimum":0},
                "new":{"type":"integer","minimum":0},
                "corrected":{"type":"integer","minimum":0},
                "error":{"type":["string","null"]}
              },
              "required":["source","outcome","startedAt","finishedAt","rates","new","corrected","error"],
              "additionalProperties":false
            }
          },
          "required":[
            "store",
            "storeSource",
            "firstDay",
            "lastDay",
            "days",
            "rates",
            "currencies",
            "upToDate",
            "dueDay",
            "missingBusinessDays",
            "holes",
            "ageDays",
            "history",
            "lastImport"
          ],
          "additionalProperties":false
        }
        """#)

    /// A failure on the command line (`--format json`, on standard error): an `ErrorAnswer`.
    public static let error: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "error":{"type":"string","description":"The message, as people read it."},
            "code":{\#(kindFormatText),"description":"The failure's kind (unknown-currency, not-quoted, usage, …)."},
            "exitStatus":{"type":"integer","minimum":1,"maximum":255,"description":"The exit status it ends with."}
          },
          "required":["error","code","exitStatus"],
          "additionalProperties":false
        }
        """#)

    /// A failure over HTTP (`/api/`, every endpoint's error body): `ServiceError`'s.
    public static let serviceError: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "message":{"type":"string"},
            "status":{"type":"integer","minimum":400,"maximum":599,"description":"The HTTP status."},
            "code":{
              \#(kindFormatText),
              "description":"The failure's kind (unknown-currency, bad-parameter, not-found, …)."
            }
          },
          "required":["message","status","code"],
          "additionalProperties":false
        }
        """#)

    /// One warning of an answer's `warnings`: an `AnswerWarning`.
    public static let warning: JSONText = schema(warningText)

    /// An object answer's `warnings`: present only when there is any.
    public static let warnings: JSONText = schema(warningsText)
}
