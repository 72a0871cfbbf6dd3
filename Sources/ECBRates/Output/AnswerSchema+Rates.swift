import Foundation

/// The schemas of `rate`'s and `latest`'s answers, and the parts of a rate they share with `convert`'s.
extension AnswerSchema {
    /// A rate's `legs`: the published (or fixed) rates per euro it is computed from.
    static let legsText = #"""
        {
          "type":"array",
          "maxItems":2,
          "items":{
            "type":"object",
            "properties":{
              "currency":\#(codeText),
              "perEuro":{
                "type":"number",
                "exclusiveMinimum":0,
                "description":"Units of the currency per euro (20 significant digits when interpolated)."
              },
              "day":{
                "type":"string",
                \#(dayFormatText),
                "description":"The day of the rate (for an interpolation, the day asked for)."
              },
              "published":{
                "type":"array",
                "minItems":1,
                "maxItems":2,
                "description":"The published rates it comes from, exactly (two for an interpolation).",
                "items":{
                  "type":"object",
                  "properties":{"day":\#(dayText),"perEuro":\#(positiveText)},
                  "required":["day","perEuro"],
                  "additionalProperties":false
                }
              },
              "fixed":{
                "type":"object",
                "properties":{"perEuro":\#(positiveText),"since":\#(dayText)},
                "required":["perEuro","since"],
                "additionalProperties":false,
                "description":"For a currency the euro replaced: its irrevocable conversion rate."
              }
            },
            "required":["currency","perEuro","day"],
            "oneOf":[{"required":["published"]},{"required":["fixed"]}],
            "additionalProperties":false
          },
          "description":"The legs that are not the euro's (currency first), to recompute the answer."
        }
        """#

    /// The properties `day` to `legs` of a rate and of a conversion (where the rate comes from),
    /// without braces.
    static let provenanceMembersText = #"""
        "day":{
          "type":"string",
          \#(dayFormatText),
          "description":"The day of the rate used (for an interpolation, the day asked for)."
        },
        "asked":{
          "type":["string","null"],
          \#(dayFormatText),
          "description":"The day asked for, when the rate is of another day or interpolated; else null."
        },
        "reason":{
          "type":["string","null"],
          "description":"Why the day asked for has no rate of its own, or that a rate is fixed."
        },
        "interpolatedBetween":{
          "type":["array","null"],
          "items":\#(dayText),
          "minItems":2,
          "maxItems":2,
          "description":"For an interpolated rate: the published days on either side; else null."
        },
        "legs":\#(legsText)
        """#

    /// The properties of a rate but `asOf` and `warnings` (``rate``'s, each of ``rates``' `rates`),
    /// without braces.
    static let rateMembersText = #"""
        "currency":\#(codeText),
        "base":\#(codeText),
        "rate":{
          "type":"number",
          "exclusiveMinimum":0,
          "description":"Units of currency per unit of base: as published, or to 20 significant digits."
        },
        \#(provenanceMembersText)
        """#

    /// The required properties of a rate (``rate``'s, each of ``rates``' `rates`).
    static let rateRequiredText = #"""
        ["currency","base","rate","day","asked","reason","interpolatedBetween","legs"]
        """#

    /// A rate of one currency (`rate` with one code): a `RateAnswer`.
    public static let rate: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":\#(asOfText),
            \#(rateMembersText),
            "warnings":\#(warningsText)
          },
          "required":\#(rateRequiredText),
          "additionalProperties":false
        }
        """#)

    /// Rates of several currencies or all (`rate`, `latest`): a `RatesAnswer`.
    public static let rates: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":\#(asOfText),
            "base":\#(codeText),
            "rates":{
              "type":"array",
              "items":{
                "type":"object",
                "properties":{
                  \#(rateMembersText)
                },
                "required":\#(rateRequiredText),
                "additionalProperties":false
              }
            },
            "warnings":\#(warningsText)
          },
          "required":["base","rates"],
          "additionalProperties":false
        }
        """#)
}
