import Foundation

/// The schemas of `rate`'s and `latest`'s answers.
extension AnswerSchema {
    /// A rate of one currency (`rate` with one code): a `RateAnswer`.
    public static let rate: JSONText = schema(
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
            "rate":{
              "type":"number",
              "exclusiveMinimum":0,
              "description":"Units of currency per unit of base: as published, or to 20 significant digits."
            },
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
          "required":["currency","base","rate","day","asked","reason","interpolatedBetween","legs"],
          "additionalProperties":false
        }
        """#)

    /// Rates of several currencies or all (`rate`, `latest`): a `RatesAnswer`.
    public static let rates: JSONText = schema(
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
            "rates":{
              "type":"array",
              "items":{
                "type":"object",
                "properties":{
                  "currency":{"type":"string","pattern":"^[A-Z]{3}$"},
                  "base":{"type":"string","pattern":"^[A-Z]{3}$"},
                  "rate":{
                    "type":"number",
                    "exclusiveMinimum":0,
                    "description":"Units of currency per unit of base: as published, or to 20 significant digits."
                  },
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
                  }
                },
                "required":["currency","base","rate","day","asked","reason","interpolatedBetween","legs"],
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
          "required":["base","rates"],
          "additionalProperties":false
        }
        """#)
}
