import Foundation

/// The schemas of `convert`'s, `series`' and `stats`' answers.
extension AnswerSchema {
    /// An amount converted (`convert`): a `ConversionAnswer`.
    public static let conversion: JSONText = schema(
        #"""
        {
          "type":"object",
          "properties":{
            "asOf":{
              "type":"string",
              "format":"date-time",
              "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$",
              "description":"The moment answered as of, when asked with as_of (--as-of): the first key."
            },
            "amount":{"type":"number","description":"The amount asked for, exactly."},
            "from":{"type":"string","pattern":"^[A-Z]{3}$"},
            "to":{"type":"string","pattern":"^[A-Z]{3}$"},
            "result":{"type":"number","description":"The amount in `to`, rounded once to its places (trailing zeros kept)."},
            "rate":{
              "type":"number",
              "exclusiveMinimum":0,
              "description":"Units of `to` per unit of `from`: as published, else to 20 significant digits."
            },
            "throughEuro":{"type":"number","description":"Between two currencies the euro replaced only: the euro amount, to 3 places."},
            "day":{
              "type":"string",
              "format":"date",
              "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
              "description":"The day of the rate used (for an interpolation, the day asked for)."
            },
            "asked":{
              "type":["string","null"],
              "format":"date",
              "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
              "description":"The day asked for, when the rate is of another day or interpolated; else null."
            },
            "reason":{"type":["string","null"],"description":"Why the day asked for has no rate of its own, or that a rate is fixed."},
            "interpolatedBetween":{
              "type":["array","null"],
              "items":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
              "minItems":2,
              "maxItems":2,
              "description":"For an interpolated rate: the published days on either side; else null."
            },
            "legs":{
              "type":"array",
              "maxItems":2,
              "items":{
                "type":"object",
                "properties":{
                  "currency":{"type":"string","pattern":"^[A-Z]{3}$"},
                  "perEuro":{
                    "type":"number",
                    "exclusiveMinimum":0,
                    "description":"Units of the currency per euro (20 significant digits when interpolated)."
                  },
                  "day":{
                    "type":"string",
                    "format":"date",
                    "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                    "description":"The day of the rate (for an interpolation, the day asked for)."
                  },
                  "published":{
                    "type":"array",
                    "minItems":1,
                    "maxItems":2,
                    "description":"The published rates it comes from, exactly (two for an interpolation).",
                    "items":{
                      "type":"object",
                      "properties":{
                        "day":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                        "perEuro":{"type":"number","exclusiveMinimum":0}
                      },
                      "required":["day","perEuro"],
                      "additionalProperties":false
                    }
                  },
                  "fixed":{
                    "type":"object",
                    "properties":{
                      "perEuro":{"type":"number","exclusiveMinimum":0},
                      "since":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
                    },
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
            },
            "warnings":{
              "type":"array",
              "minItems":1,
              "items":{
                "type":"object",
                "properties":{
                  "code":{
                    "type":"string",
                    "pattern":"^[a-z]+(-[a-z]+)*$",
                    "description":"stale-store, incomplete-answer, missing-currency, …: a stable word to test."
                  },
                  "message":{"type":"string"}
                },
                "required":["code","message"],
                "additionalProperties":false
              },
              "description":"What the reader must know although the answer stands; present only when there is any."
            }
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
            "asOf":{
              "type":"string",
              "format":"date-time",
              "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$",
              "description":"The moment answered as of, when asked with as_of (--as-of): the first key."
            },
            "base":{"type":"string","pattern":"^[A-Z]{3}$"},
            "currencies":{"type":"array","minItems":1,"items":{"type":"string","pattern":"^[A-Z]{3}$"},"description":"The columns, as asked."},
            "group":{"type":["string","null"],"enum":["week","month","quarter","year",null]},
            "statistic":{"type":["string","null"],"enum":["mean","first","last","min","max",null]},
            "complete":{"type":"boolean","description":"False when business days whose rates are out are not stored."},
            "missing":{
              "type":"array",
              "items":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
              "description":"Those business days (--partial)."
            },
            "rows":{
              "type":"array",
              "items":{
                "type":"object",
                "properties":{
                  "date":{
                    "type":"string",
                    "format":"date",
                    "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                    "description":"The day, or the first day of the week, month, quarter or year."
                  },
                  "days":{"type":"integer","minimum":1,"description":"Grouped rows only: the publications the row was made of."},
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
                  "^[A-Z]{3}$":{"type":["number","null"],"exclusiveMinimum":0,"description":"One key per currency: its figure, or null without one."}
                },
                "additionalProperties":false
              }
            },
            "warnings":{
              "type":"array",
              "minItems":1,
              "items":{
                "type":"object",
                "properties":{
                  "code":{
                    "type":"string",
                    "pattern":"^[a-z]+(-[a-z]+)*$",
                    "description":"stale-store, incomplete-answer, missing-currency, …: a stable word to test."
                  },
                  "message":{"type":"string"}
                },
                "required":["code","message"],
                "additionalProperties":false
              },
              "description":"What the reader must know although the answer stands; present only when there is any."
            }
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
            "asOf":{
              "type":"string",
              "format":"date-time",
              "pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]+)?Z$",
              "description":"The moment answered as of, when asked with as_of (--as-of): the first key."
            },
            "currency":{"type":"string","pattern":"^[A-Z]{3}$"},
            "base":{"type":"string","pattern":"^[A-Z]{3}$"},
            "from":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
            "to":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
            "days":{"type":"integer","minimum":1,"description":"The days in the range with a rate."},
            "first":{
              "type":"object",
              "properties":{
                "day":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                "rate":{"type":"number","exclusiveMinimum":0}
              },
              "required":["day","rate"],
              "additionalProperties":false
            },
            "last":{
              "type":"object",
              "properties":{
                "day":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                "rate":{"type":"number","exclusiveMinimum":0}
              },
              "required":["day","rate"],
              "additionalProperties":false
            },
            "min":{
              "type":"object",
              "properties":{
                "day":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                "rate":{"type":"number","exclusiveMinimum":0}
              },
              "required":["day","rate"],
              "additionalProperties":false
            },
            "max":{
              "type":"object",
              "properties":{
                "day":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
                "rate":{"type":"number","exclusiveMinimum":0}
              },
              "required":["day","rate"],
              "additionalProperties":false
            },
            "mean":{"type":"number","exclusiveMinimum":0},
            "changePercent":{"type":"number","description":"(last - first) / first, in percent, to 2 places."},
            "complete":{"type":"boolean"},
            "missing":{"type":"array","items":{"type":"string","format":"date","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}},
            "warnings":{
              "type":"array",
              "minItems":1,
              "items":{
                "type":"object",
                "properties":{
                  "code":{
                    "type":"string",
                    "pattern":"^[a-z]+(-[a-z]+)*$",
                    "description":"stale-store, incomplete-answer, missing-currency, …: a stable word to test."
                  },
                  "message":{"type":"string"}
                },
                "required":["code","message"],
                "additionalProperties":false
              },
              "description":"What the reader must know although the answer stands; present only when there is any."
            }
          },
          "required":["currency","base","from","to","days","first","last","min","max","mean","changePercent","complete","missing"],
          "additionalProperties":false
        }
        """#)
}
