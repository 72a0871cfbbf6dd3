#!/usr/bin/env python3
"""The page at `ecbrates serve`'s root, in a real browser: Debian's headless Chromium, driven
by Selenium (PyPI) through chromedriver.

  page_check.py BASE_URL ECBRATES STORE SEED CASES SHOTS [--case N]

BASE_URL is where `ecbrates serve` listens (started with ECBRATES_NOW=2026-10-01T12:00:00Z on
STORE); ECBRATES is the binary the command line's answers are asked of (with the same
ECBRATES_NOW); SHOTS is a directory for the screenshots (kept there: page-1440.png,
page-390.png, page-390-dark.png). Prints one line per check, `ok N` at the end when every
case passed; else one line per failure, `seed S case C: …` (`--case C` reruns that case
alone), and exits 1.

What is checked, each against something the page did not make:
  * the page loads with no console message of level SEVERE (a script error, a resource that
    failed, a Content-Security-Policy violation: Chromium reports each so), and every request
    the browser made (its performance log) went to BASE_URL or was a data: URL;
  * the Content-Security-Policy header (read with http.client) forbids inline script, other
    origins and frames; a hostile value (markup, 3,900 characters: the server reads targets of 4,096 bytes) is shown as text, runs
    nothing, and the page stays within 390 px;
  * CASES seeded conversions typed into the form (amounts with up to 6 decimals, negative
    ones, currencies of today, ended ones such as CYP and SIT, the euro's legacy currencies
    DEM, FRF, ITL; any day from 1998 to the store's end, weekends and holidays; every fallback;
    unknown codes, days before the first publication): the result on the page is exactly
    what `ecbrates convert` prints, and a refusal has exactly `/api/convert`'s message and
    code. Most go through the script's submit, every fifth through a browser with JavaScript
    off (the plain form);
  * seeded charts (1 to 3 currencies, a range, grouped or not): the table's numbers are
    `/api/series`' (the published rates exactly; a derived figure, a mean, is the API's
    rounded to 6 significant digits, computed here with decimal), and every point of each line
    drawn, read back through the axis' own tick labels, is within half a pixel of its number
    (for several currencies, of the index value/first x 100, computed with fractions);
  * the chart's form as a person leaves it (every publication) draws the series;
  * the keyboard alone: Tab reaches the skip link, Enter follows it, and typing and Tab fill
    the converter, Enter submits it; every visible control has a label;
  * screenshots at 1440 px and 390 px (and 390 px in the dark scheme), with no horizontal
    scrolling at 390 px.
"""
import base64
import http.client
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse
from datetime import date, timedelta
from decimal import Decimal, Context, ROUND_HALF_UP
from fractions import Fraction

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

TODAY = ["USD", "JPY", "GBP", "CHF", "AUD", "CAD", "CNY", "CZK", "DKK", "HUF", "INR", "KRW", "MXN", "NOK", "PLN",
         "SEK", "SGD", "TRY", "ZAR", "BRL", "ISK", "NZD", "EUR"]
ENDED = ["CYP", "SIT", "MTL", "SKK", "EEK", "LVL", "LTL", "BGN", "HRK", "RUB", "ROL", "TRL"]
LEGACY = ["DEM", "FRF", "ITL", "ESP", "NLG"]
FALLBACKS = ["previous", "next", "nearest", "interpolate", "none"]
NOW = "2026-10-01T12:00:00Z"


def browser(javascript=True):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1440,1000", "--lang=en-US", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


class Check:
    def __init__(self, base, binary, store, seed):
        self.base, self.binary, self.store, self.seed = base, binary, store, seed
        self.failures = []
        self.passed = 0
        self.tally = {"answered": 0, "refused": 0, "without script": 0, "charts": 0, "chart rows": 0}
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname, parsed.port

    def fail(self, case, what):
        self.failures.append(f"seed {self.seed} case {case}: {what}")

    def http(self, target, accept="text/html"):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        connection.request("GET", target, headers={"Accept": accept})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), body

    def cli(self, arguments):
        run = subprocess.run([self.binary] + arguments + ["--store", self.store], capture_output=True, text=True,
                             env=dict(os.environ, ECBRATES_NOW=NOW), timeout=60)
        return run.returncode, run.stdout, run.stderr

    # Logs: console errors and requests that left the server.

    def drain_logs(self, driver, case, allow_status=False):
        for entry in driver.get_log("browser"):
            message = entry.get("message", "")
            # A refused form answers its status (400, 404): Chromium logs that as a failed
            # resource; nothing else may be logged as severe.
            if allow_status and "the server responded with a status of 4" in message:
                continue
            if entry.get("level") == "SEVERE":
                self.fail(case, f"console: {message}")
        for entry in driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            if event.get("method") != "Network.requestWillBeSent":
                continue
            url = event["params"]["request"]["url"]
            if not (url.startswith(self.base + "/") or url.startswith("data:")):
                self.fail(case, f"a request left the server: {url}")

    # The page itself.

    def check_headers(self):
        status, headers, body = self.http("/")
        policy = headers.get("content-security-policy", "")
        for needed in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]:
            if needed not in policy:
                self.fail("headers", f"Content-Security-Policy lacks {needed}: {policy!r}")
        if "unsafe-inline" in policy or "unsafe-eval" in policy or "http" in policy:
            self.fail("headers", f"Content-Security-Policy allows too much: {policy!r}")
        if status != 200 or not headers.get("content-type", "").startswith("text/html") or "etag" not in headers:
            self.fail("headers", f"/ answered {status} {headers}")
        html = body.decode()
        if re.search(r"<script(?![^>]*\bsrc=\"/assets/)", html) or re.search(r"\sstyle=|\son[a-z]+=", html):
            self.fail("headers", "the page has an inline script, style or event handler")
        for asset in re.findall(r'(?:href|src)="(/assets/[^"]+)"', html):
            status, headers, _ = self.http(asset, accept="*/*")
            if status != 200 or "etag" not in headers or "cache-control" not in headers:
                self.fail("headers", f"{asset} answered {status} {headers}")
        status, headers, body = self.http("/", accept="application/json")
        if status != 200 or "/api/convert" not in json.loads(body)["api"].values():
            self.fail("headers", f"/ for a program answered {status} {body[:200]!r}")
        self.passed += 1

    def check_load(self, driver):
        driver.get(self.base + "/")
        self.drain_logs(driver, "load")
        day = driver.find_element(By.ID, "rates-day").text
        code, out, _ = self.cli(["latest", "--format", "json"])
        latest = json.loads(out, parse_float=Decimal)
        days = {rate["day"] for rate in latest["rates"]}
        if days != {day}:
            self.fail("load", f"the page's newest day {day} is not latest's {days}")
        rows = driver.find_elements(By.CSS_SELECTOR, "#rates-table tbody tr")
        shown = {r.find_element(By.TAG_NAME, "th").text: Decimal(r.find_elements(By.TAG_NAME, "td")[1].text)
                 for r in rows}
        expected = {rate["currency"]: rate["rate"] for rate in latest["rates"]}
        if shown != expected:
            self.fail("load", f"rates differ from latest: {set(shown.items()) ^ set(expected.items())}")
        names = [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows]
        if any(not name for name in names):
            self.fail("load", "a currency without its name")
        unlabelled = driver.execute_script(
            "return [...document.querySelectorAll('input:not([type=hidden]), select')]"
            ".filter(e => e.labels.length === 0).map(e => e.name)")
        if unlabelled:
            self.fail("load", f"controls without a label: {unlabelled}")
        self.passed += 1

    # The converter.

    def conversion_case(self, rng):
        amount = str(Decimal(rng.randint(-10**9, 10**9)) / Decimal(10) ** rng.choice([0, 0, 2, 2, 3, 6]))
        if rng.random() < 0.05:
            amount = rng.choice(["1,234.56", "12e3", "abc"])
        pool = TODAY * 3 + ENDED + LEGACY
        source, target = rng.choice(pool), rng.choice(pool)
        if rng.random() < 0.05:
            source = rng.choice(["XYZ", "US", "usd"])
        year = rng.choice([1998, 1999, 2001, 2008, 2015, 2020, 2024, 2026] + list(range(1999, 2027)))
        day = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        if year == 2026 and day > "2026-09-30":
            day = "2026-09-" + f"{rng.randint(20, 30):02d}"
        if rng.random() < 0.1:
            day = ""
        return amount, source, target, day, rng.choice(FALLBACKS)

    def fill(self, driver, amount, source, target, day, fallback):
        for name, value in [("amount", amount), ("from", source), ("to", target)]:
            field = driver.find_element(By.ID, name)
            field.clear()
            field.send_keys(value)
        # A date input's typing depends on the locale; its value is ISO whatever the locale.
        driver.execute_script("document.getElementById('date').value = arguments[0]", day)
        Select(driver.find_element(By.ID, "fallback")).select_by_value(fallback)

    def check_conversion(self, driver, case, parameters, javascript):
        amount, source, target, day, fallback = parameters
        driver.get(self.base + "/")
        self.fill(driver, *parameters)
        before = driver.find_element(By.ID, "conversion")
        driver.find_element(By.CSS_SELECTOR, "#converter button[type=submit]").click()
        WebDriverWait(driver, 30).until(lambda d: self.stale(before) and d.find_elements(
            By.CSS_SELECTOR, "#conversion-text, #conversion-error"))
        self.drain_logs(driver, case, allow_status=True)
        query = {"amount": amount, "from": source, "to": target, "fallback": fallback}
        if day:
            query["date"] = day
        status, _, body = self.http("/api/convert?" + urllib.parse.urlencode(query), accept="application/json")
        answer = json.loads(body)
        texts = driver.find_elements(By.ID, "conversion-text")
        where = f"{amount} {source} {target} {day or 'newest'} {fallback} ({'script' if javascript else 'form'})"
        if texts:
            arguments = ["convert", amount, source, target, "--fallback", fallback] + (["--date", day] if day else [])
            code, out, err = self.cli(arguments)
            if code != 0 or texts[0].text != out.rstrip("\n"):
                self.fail(case, f"{where}: page says {texts[0].text!r}, convert {code} {out!r} {err!r}")
            if status != 200:
                self.fail(case, f"{where}: the page answered, the API {status} {body[:200]!r}")
            self.tally["answered"] += 1
        else:
            error = driver.find_element(By.ID, "conversion-error")
            message = error.find_element(By.CLASS_NAME, "message").text
            if status == 200 or message != answer.get("message") or error.get_attribute(
                    "data-code") != answer.get("code"):
                self.fail(case, f"{where}: page refused {error.get_attribute('data-code')} {message!r}, "
                                f"the API {status} {answer}")
            self.tally["refused"] += 1
        if not javascript:
            self.tally["without script"] += 1
        if driver.current_url.split("#")[0] == self.base + "/" and javascript:
            self.fail(case, "the address does not carry the question")
        self.passed += 1

    @staticmethod
    def stale(element):
        try:
            element.is_enabled()
            return False
        except Exception:
            return True

    # The chart.

    def chart_case(self, rng):
        codes = rng.sample(["USD", "CHF", "JPY", "GBP", "CZK", "SEK", "PLN", "AUD", "CYP", "NOK"], rng.choice([1, 1, 2, 3]))
        start_year = rng.randint(1999, 2025)
        start = f"{start_year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        span = rng.choice([20, 90, 400, 1500])
        end = min(date.fromisoformat(start) + timedelta(days=span), date(2026, 9, 30)).isoformat()
        group = rng.choice(["", "", "week", "month", "quarter", "year"])
        return codes, start, end, group

    def check_chart(self, driver, case, parameters):
        codes, start, end, group = parameters
        query = {"currencies": ",".join(codes), "start": start, "end": end, "partial": "true"}
        if group:
            query["group"] = group
        driver.get(self.base + "/?" + urllib.parse.urlencode(query) + "#chart")
        self.drain_logs(driver, case, allow_status=True)
        api = {"currencies": ",".join(codes), "from": start, "to": end, "partial": "true"}
        if group:
            api["group"] = group
        status, _, body = self.http("/api/series?" + urllib.parse.urlencode(api), accept="application/json")
        answer = json.loads(body, parse_float=Decimal)
        where = f"{','.join(codes)} {start}..{end} {group or 'day'}"
        if status != 200:
            error = driver.find_elements(By.ID, "chart-error")
            if not error or error[0].find_element(By.CLASS_NAME, "message").text != answer["message"]:
                self.fail(case, f"{where}: the API refused {answer}, the page did not say so")
            self.passed += 1
            return
        rows = answer["rows"]
        derived = group != ""
        table = driver.execute_script(
            "return [...document.querySelectorAll('#chart-table tbody tr')].map(r => [...r.children].map(c => c.textContent))")
        if not rows:
            if table:
                self.fail(case, f"{where}: an empty series, a table of {len(table)} rows")
            self.passed += 1
            return
        if len(table) != len(rows):
            self.fail(case, f"{where}: {len(table)} rows on the page, {len(rows)} in /api/series")
            return
        def six(value):
            # Half away from zero, to 6 significant digits, never dropping integer digits (the
            # user guide's rule), by decimal.
            if value.adjusted() >= 5:
                return value.quantize(Decimal(1), rounding=ROUND_HALF_UP)
            return Context(prec=6, rounding=ROUND_HALF_UP).plus(value)
        for row, cells in zip(rows, table):
            if cells[0] != row["date"]:
                self.fail(case, f"{where}: row {cells[0]} is {row['date']} in the API")
                return
            values = cells[2:] if group else cells[1:]
            for code, cell in zip(codes, values):
                value = row[code]
                if value is None:
                    ok = cell == "-"
                else:
                    exact = Decimal(value)
                    expected = six(exact) if derived else exact
                    ok = cell != "-" and Decimal(cell) == expected
                if not ok:
                    self.fail(case, f"{where}: {row['date']} {code} is {cell} on the page, {value} in the API")
                    return
        self.check_points(driver, case, where, codes, rows)
        self.tally["charts"] += 1
        self.tally["chart rows"] += len(rows)
        self.passed += 1

    def check_points(self, driver, case, where, codes, rows):
        svg = driver.find_element(By.CSS_SELECTOR, "#chart-figure svg").get_attribute("outerHTML")
        # The value axis: each grid line's y and its label's number.
        ticks = re.findall(r'<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" stroke="currentColor" '
                           r'stroke-opacity="0.2"\s*/?>(?:</line>)?\s*<text[^>]*text-anchor="end"[^>]*>([-\d.]+)</text>', svg)
        if len(ticks) < 2:
            self.fail(case, f"{where}: no value axis in the chart")
            return
        (y0, v0), (y1, v1) = (Fraction(ticks[0][0]), Fraction(ticks[0][1])), (Fraction(ticks[-1][0]), Fraction(ticks[-1][1]))
        per_pixel = (v1 - v0) / (y1 - y0)
        # Several currencies are indexes: 100 on the first row where every one has a figure
        # (each line its own first figure when no row has them all).
        common = next((r for r in rows if all(r[c] is not None for c in codes)), None)
        for code in codes:
            match = re.search(r'<path data-currency="%s" d="([^"]*)"' % code, svg)
            values = [Fraction(str(r[code])) for r in rows if r[code] is not None]
            if match is None:
                self.fail(case, f"{where}: no line for {code}")
                return
            if len(codes) > 1 and values:
                base = Fraction(str(common[code])) if common else values[0]
                values = [v / base * 100 for v in values]
            points = re.findall(r"[ML]([\d.]+) ([\d.]+)", match.group(1))
            if len(points) != len(values):
                self.fail(case, f"{where}: {code} has {len(points)} points, {len(values)} numbers")
                return
            for (x, y), value in zip(points, values):
                drawn = v0 + (Fraction(y) - y0) * per_pixel
                # The drawing writes a tenth of a pixel: half a pixel is four times that.
                if abs(drawn - value) > abs(per_pixel) / 2:
                    self.fail(case, f"{where}: {code} drawn at {float(drawn)}, its number is {float(value)}")
                    return

    # Hostile values, the keyboard, the screenshots.

    def check_hostile(self, driver):
        markup = '<script>window.hostile=1</script><img src=x onerror="window.hostile=2">'
        for value in [markup, "A" * 3900]:
            query = urllib.parse.urlencode({"amount": "1", "from": value, "to": "USD"})
            driver.set_window_size(390, 900)
            driver.get(self.base + "/?" + query)
            self.drain_logs(driver, "hostile", allow_status=True)
            status, _, body = self.http("/api/convert?" + query, accept="application/json")
            message = driver.find_element(By.CSS_SELECTOR, "#conversion-error .message").text
            if message != json.loads(body)["message"]:
                self.fail("hostile", f"the page says {message[:100]!r}, the API {body[:100]!r}")
            if driver.execute_script("return window.hostile") is not None:
                self.fail("hostile", "a value given in the query ran")
            if driver.find_element(By.ID, "from").get_attribute("value") != value:
                self.fail("hostile", "the field does not show the value given")
            width = driver.execute_script("return document.documentElement.scrollWidth")
            if width > 390:
                self.fail("hostile", f"the page is {width} px wide at 390 px")
        driver.set_window_size(1440, 1000)
        self.passed += 1

    def check_keyboard(self, driver):
        driver.get(self.base + "/")
        keys = ActionChains(driver)
        keys.send_keys(Keys.TAB).perform()
        if driver.switch_to.active_element.get_attribute("class") != "skip":
            self.fail("keyboard", "the first Tab does not reach the skip link")
        # Tab by Tab through the header's links to the converter's first field.
        for _ in range(15):
            if driver.switch_to.active_element.get_attribute("id") == "amount":
                break
            keys.send_keys(Keys.TAB).perform()
        else:
            self.fail("keyboard", "15 Tabs do not reach the amount")
            return
        for value in ["1234.56", "GBP", "JPY"]:
            active = driver.switch_to.active_element
            if active.tag_name != "input":
                self.fail("keyboard", f"Tab reached {active.get_attribute('outerHTML')[:80]}, not a field")
                return
            keys.send_keys(value).perform()
            keys.send_keys(Keys.TAB).perform()
        driver.execute_script("document.getElementById('date').value = '2024-03-29'")
        before = driver.find_element(By.ID, "conversion")
        driver.find_element(By.ID, "to").click()
        keys.send_keys(Keys.ENTER).perform()
        WebDriverWait(driver, 30).until(lambda d: self.stale(before) and d.find_elements(By.ID, "conversion-text"))
        code, out, _ = self.cli(["convert", "1234.56", "GBP", "JPY", "--date", "2024-03-29"])
        shown = driver.find_element(By.ID, "conversion-text").text
        if shown != out.rstrip("\n"):
            self.fail("keyboard", f"the page says {shown!r}, convert {out!r}")
        if driver.switch_to.active_element.get_attribute("id") != "conversion":
            self.fail("keyboard", "the focus did not move to the answer")
        self.passed += 1

    def check_chart_form(self, driver):
        # The chart's form as a person leaves it: every publication, the default figure.
        driver.get(self.base + "/")
        field = driver.find_element(By.ID, "chart-currencies")
        field.clear()
        field.send_keys("CHF")
        driver.execute_script("document.getElementById('chart-start').value = '2022-01-01';"
                              "document.getElementById('chart-end').value = '2022-12-31'")
        before = driver.find_element(By.ID, "chart-answer")
        driver.find_element(By.CSS_SELECTOR, "#chart button[type=submit]").click()
        WebDriverWait(driver, 30).until(lambda d: self.stale(before) and d.find_elements(
            By.CSS_SELECTOR, "#chart-table, #chart-error"))
        self.drain_logs(driver, "chart form")
        status, _, body = self.http("/api/series?currencies=CHF&from=2022-01-01&to=2022-12-31",
                                    accept="application/json")
        rows = driver.find_elements(By.CSS_SELECTOR, "#chart-table tbody tr")
        if driver.find_elements(By.ID, "chart-error") or len(rows) != len(json.loads(body)["rows"]):
            self.fail("chart form", f"the form's defaults drew {len(rows)} rows: {driver.current_url}")
        self.passed += 1

    def screenshots(self, driver, directory):
        os.makedirs(directory, exist_ok=True)
        target = "/?amount=1234.56&from=GBP&to=JPY&date=2024-03-29&currencies=CHF&start=2022-01-01&end=2022-12-31&group=month"
        for width, scheme, name in [(1440, "light", "page-1440.png"), (390, "light", "page-390.png"),
                                    (390, "dark", "page-390-dark.png")]:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
            driver.get(self.base + target)
            self.drain_logs(driver, f"screenshot {name}")
            scroll_width = driver.execute_script("return document.documentElement.scrollWidth")
            if scroll_width > width:
                self.fail(f"screenshot {name}", f"the page is {scroll_width} px wide at {width} px")
            background = driver.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
            dark = background in ("rgb(13, 17, 23)",)
            if dark != (scheme == "dark"):
                self.fail(f"screenshot {name}", f"the {scheme} scheme has background {background}")
            height = driver.execute_script("return document.documentElement.scrollHeight")
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
            path = os.path.join(directory, name)
            with open(path, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
            print(f"screenshot {path} {width}x{height} {scheme}")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.passed += 1


def main():
    arguments = sys.argv[1:]
    only = None
    if "--case" in arguments:
        index = arguments.index("--case")
        only = int(arguments[index + 1])
        del arguments[index:index + 2]
    base, binary, store, seed, cases, shots = arguments
    seed, cases = int(seed), int(cases)
    check = Check(base.rstrip("/"), binary, store, seed)
    check.check_headers()
    driver = browser()
    plain = browser(javascript=False)
    try:
        if only is None:
            check.check_load(driver)
            check.check_hostile(driver)
            check.check_keyboard(driver)
            check.check_chart_form(driver)
            check.screenshots(driver, shots)
        rng = random.Random(seed)
        for case in range(cases):
            conversion, chart = check.conversion_case(rng), check.chart_case(rng)
            if only is not None and case != only:
                continue
            javascript = case % 5 != 4
            check.check_conversion(driver if javascript else plain, case, conversion, javascript)
            if case % 2 == 0:
                check.check_chart(driver, case, chart)
    finally:
        driver.quit()
        plain.quit()
    for failure in check.failures:
        print(failure)
    if check.failures:
        sys.exit(1)
    print(f"ok {check.passed}: " + ", ".join(f"{count} {what}" for what, count in check.tally.items()))


if __name__ == "__main__":
    main()
