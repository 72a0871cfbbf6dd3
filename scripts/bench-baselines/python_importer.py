#!/usr/bin/env python3
"""Baseline for the import benchmark: the Python importer a user would write instead of ecbrates.

ElementTree's iterparse over the file, sqlite3 with one prepared INSERT OR REPLACE in one
transaction, into a table keyed on (date, currency); the rate is kept as its exact text. Like an
ecbrates store, the table is also indexed on (currency, date), built after the load.

    python_importer.py FILE STORE      prints {"seconds": S, "rates": N}
"""
import json
import sqlite3
import sys
import time
import xml.etree.ElementTree as ElementTree

start = time.perf_counter()
path, store = sys.argv[1], sys.argv[2]
connection = sqlite3.connect(store)
connection.execute("CREATE TABLE IF NOT EXISTS rates (date TEXT NOT NULL, currency TEXT NOT NULL, rate TEXT NOT NULL,"
                   " PRIMARY KEY (date, currency))")
CUBE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}Cube"
day = None
rows = 0
with connection:
    insert = "INSERT OR REPLACE INTO rates (date, currency, rate) VALUES (?, ?, ?)"
    for event, element in ElementTree.iterparse(path, events=("start", "end")):
        if element.tag != CUBE:
            continue
        if event == "start" and "time" in element.attrib:
            day = element.attrib["time"]
        elif event == "end" and "currency" in element.attrib:
            connection.execute(insert, (day, element.attrib["currency"], element.attrib["rate"]))
            rows += 1
        elif event == "end" and "time" in element.attrib:
            element.clear()
    connection.execute("CREATE INDEX IF NOT EXISTS rates_currency ON rates (currency, date)")
connection.close()
print(json.dumps({"seconds": time.perf_counter() - start, "rates": rows}))
