import Foundation

/// The schemas of `convert`'s, `series`' and `stats`' answers.
extension AnswerSchema {
    /// A rate on a day: `stats`' `first`, `last`, `min` and `max`.
    static let dayRateText = #"""
        {
          "type":"object",
          "properties":{"day":\#(dayText),"rate":\#(positiveText)},
          "required":["day","rate"],
          "additionalProperties":false
        }
        """#

    /// An amount converted (`convert`): a `ConversionAnswer`.
    public static let conversion: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":\#(asOfText),
            "amount":{"type":"number","description":"The amount asked for, exactly."},
            "from":\#(codeText),
            "to":\#(codeText),
            "result":{
              "type":"number",
              "description":"The amount in `to`, rounded once to its places (trailing zeros kept)."
            },
            "rate":{
              "type":"number",
              "exclusiveMinimum":0,
              "description":"Units of `to` per unit of `from`: as published, else to 20 significant digits."
            },
            "throughEuro":{
              "type":"number",
              "description":"Between two currencies the euro replaced only: the euro amount, to 3 places."
            },
            \#(provenanceMembersText),
            "warnings":\#(warningsText)
          },
          "required":["amount","from","to","result","rate","day","asked","reason","interpolatedBetween","legs"],
          "additionalProperties":false
        }
        """#)

    /// Rates day by day, or one figure per period (`series`): a `SeriesTable`.
    public static let series: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":\#(asOfText),
            "base":\#(codeText),
            "currencies":{"type":"array","minItems":1,"items":\#(codeText),"description":"The columns, as asked."},
            "group":{"type":["string","null"],"enum":["week","month","quarter","year",null]},
            "statistic":{"type":["string","null"],"enum":["mean","first","last","min","max",null]},
            "complete":{"type":"boolean","description":"False when business days whose rates are out are not stored."},
            "missing":{
              "type":"array",
              "items":\#(dayText),
              "description":"Those business days (--partial)."
            },
            "rows":{
              "type":"array",
              "items":{
                "type":"object",
                "properties":{
                  "date":{
                    "type":"string",
                    \#(dayFormatText),
                    "description":"The day, or the first day of the week, month, quarter or year."
                  },
                  "days":{
                    "type":"integer",
                    "minimum":1,
                    "description":"Grouped rows only: the publications the row was made of."
                  },
                  "currencyDays":{
                    "type":"object",
                    "minProperties":2,
                    "description":"Grouped rows of several currencies only: each one's count of days.",
                    "patternProperties":{"^[A-Z]{3}$":{"type":"integer","minimum":0}},
                    "additionalProperties":false
                  }
                },
                "required":["date"],
                "patternProperties":{
                  "^[A-Z]{3}$":{
                    "type":["number","null"],
                    "exclusiveMinimum":0,
                    "description":"One key per currency: its figure, or null without one."
                  }
                },
                "additionalProperties":false
              }
            },
            "warnings":\#(warningsText)
          },
          "required":["base","currencies","group","statistic","complete","missing","rows"],
          "additionalProperties":false
        }
        """#)

    /// A currency's figures over a range (`stats`): `RateStats`.
    public static let stats: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":\#(asOfText),
            "currency":\#(codeText),
            "base":\#(codeText),
            "from":\#(dayText),
            "to":\#(dayText),
            "days":{"type":"integer","minimum":1,"description":"The days in the range with a rate."},
            "first":\#(dayRateText),
            "last":\#(dayRateText),
            "min":\#(dayRateText),
            "max":\#(dayRateText),
            "mean":\#(positiveText),
            "changePercent":{"type":"number","description":"(last - first) / first, in percent, to 2 places."},
            "complete":{"type":"boolean"},
            "missing":{"type":"array","items":\#(dayText)},
            "warnings":\#(warningsText)
          },
          "required":[
            "currency","base","from","to","days","first","last","min","max","mean","changePercent","complete",
            "missing"
          ],
          "additionalProperties":false
        }
        """#)
}
