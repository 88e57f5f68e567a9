#!/usr/bin/env python3
"""The web console in headless Chromium (issue 15, "What it must show").

Starts `herald emulator` (h2c, in memory, its console on a listener of its own) and `herald gateway`
(sending to that emulator) as real processes on ephemeral loopback ports, registers a simulated
device through the gateway, then drives both consoles with Selenium: sign in; a string badge shows
APS-TYPE and fixing it removes it; the preview shows title and body; a send to the device reaches
`done` with a 200 delivery row; a send to an unregistered token shows 410 with its explanation; the
notification list, devices, Live Activities and channels pages; the metrics chart has data; the
emulator's console lists the delivery, injects and clears a fault, lists the simulated device.
Screenshots of each page go to $CONSOLE_SCREENSHOTS (default .build/console-screenshots). The
browser's log must hold no error at all (a missing favicon, a CSP violation and a JavaScript
exception all count).

Run: python3 Tests/Browser/console_test.py  (HERALD_BIN: the herald binary; default .build/debug/herald)
"""

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERALD = os.environ.get("HERALD_BIN", os.path.join(ROOT, ".build", "debug", "herald"))
SHOTS = os.environ.get("CONSOLE_SCREENSHOTS", os.path.join(ROOT, ".build", "console-screenshots"))
BUNDLE = "com.example.app"
KEY_ID, TEAM_ID = "ABC123DEFG", "DEF123GHIJ"
TIMEOUT = 30


class Herald:
    """A herald process whose standard output is read until a line matches."""

    def __init__(self, arguments, ready):
        self.process = subprocess.Popen(
            [HERALD] + arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines = []
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            if re.search(ready, line):
                return
        raise RuntimeError(f"herald {arguments[0]} did not start:\n" + "\n".join(self.lines))

    def find(self, pattern):
        for line in self.lines:
            match = re.search(pattern, line)
            if match:
                return match.group(1)
        raise RuntimeError(f"no line matches {pattern}:\n" + "\n".join(self.lines))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def http(method, url, body=None, key=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    if key:
        request.add_header("authorization", "Bearer " + key)
    if body is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class ConsoleTest:
    def __init__(self, directory):
        self.directory = directory
        self.steps = []
        self.errors = []

    def step(self, text):
        self.steps.append(text)
        print("  ok:", text, flush=True)

    def wait(self, condition, what):
        # A list the page re-renders between two looks leaves stale elements: look again, do not fail.
        try:
            return WebDriverWait(self.driver, TIMEOUT, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
        except TimeoutException:
            self.shot("failed")
            raise AssertionError(f"timed out waiting for: {what}")
        except Exception as error:
            self.shot("failed")
            raise AssertionError(f"while waiting for {what}: {type(error).__name__}: {error}")

    def click_first(self, selector, what):
        """Clicks the first element that matches, looking again if a re-render replaced it meanwhile."""
        def click():
            found = self.all(selector)
            if not found:
                return False
            found[0].click()
            return True
        self.wait(click, what)

    def by(self, testid):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def shot(self, name):
        path = os.path.join(SHOTS, name + ".png")
        self.driver.save_screenshot(path)
        self.collect_log()

    def collect_log(self):
        for entry in self.driver.get_log("browser"):
            if entry["level"] in ("SEVERE", "ERROR"):
                self.errors.append(entry["message"])

    def type_payload(self, payload):
        area = self.by("compose-payload")
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", area, payload)

    def run(self):
        key_file = os.path.join(self.directory, "AuthKey.p8")
        subprocess.run(
            f"openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out {key_file}",
            shell=True, check=True)
        credentials = ["--auth-key", key_file, "--key-id", KEY_ID, "--team-id", TEAM_ID]
        self.emulator = Herald(
            ["emulator", "--plaintext", "--listen", "127.0.0.1:0", "--in-memory", "--console", "127.0.0.1:0"]
            + credentials, r"delivery log:")
        emulator_port = self.emulator.find(r"listening on http://127\.0\.0\.1:(\d+)")
        console_url = "http://127.0.0.1:" + self.emulator.find(r"console: http://127\.0\.0\.1:(\d+)/console") + "/console"
        data = os.path.join(self.directory, "gateway")
        self.gateway = Herald(
            ["gateway", "--data-dir", data, "--listen", "127.0.0.1:0", "--topic", BUNDLE,
             "--endpoint", f"http://127.0.0.1:{emulator_port}"] + credentials, r"listening on")
        gateway_url = "http://127.0.0.1:" + self.gateway.find(r"listening on http://127\.0\.0\.1:(\d+)")
        with open(os.path.join(data, "admin-api-key")) as file:
            admin_key = file.read().strip()
        print(f"emulator 127.0.0.1:{emulator_port}, its console {console_url}, gateway {gateway_url}", flush=True)

        # A simulated device, registered with the gateway as an app would; a token the emulator holds as dead.
        device_token = subprocess.run(
            [HERALD, "device", "register", "--endpoint", f"http://127.0.0.1:{emulator_port}", "--topic", BUNDLE],
            check=True, capture_output=True, text=True, timeout=TIMEOUT).stdout.strip()
        status, body = http("PUT", f"{gateway_url}/v1/apps/{BUNDLE}/devices/{device_token}", {"user": "ada"}, admin_key)
        assert status == 200, (status, body)
        # The dead token is registered with the gateway before the emulator marks it unregistered, so the 410's
        # timestamp is after its upload and the gateway prunes it (docs/GATEWAY.md, "The pruning rule").
        dead_token = secrets.token_hex(32)
        status, body = http("PUT", f"{gateway_url}/v1/apps/{BUNDLE}/devices/{dead_token}", {"user": "bob"}, admin_key)
        assert status == 200, (status, body)
        # The rule compares milliseconds: the unregistration must fall on a later one than the upload.
        time.sleep(0.01)
        status, body = http("POST", f"{console_url.rsplit('/', 1)[0]}/control/v1/devices/{dead_token}/unregister")
        assert status in (200, 204), (status, body)
        self.step(f"devices {device_token[:12]}... and {dead_token[:12]}... registered through the gateway; "
                  "the second unregistered in the emulator")
        # A Live Activity and a push-to-start token, uploaded as the app would, for the activities page's lists.
        status, body = http("PUT", f"{gateway_url}/v1/apps/{BUNDLE}/live-activities/race-1",
                            {"token": secrets.token_hex(32), "user": "ada"}, admin_key)
        assert status == 200, (status, body)
        status, body = http("PUT", f"{gateway_url}/v1/apps/{BUNDLE}/live-activities/push-to-start/{secrets.token_hex(32)}",
                            {"attributes-type": "RaceAttributes", "user": "ada"}, admin_key)
        assert status == 200, (status, body)

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1280,1000", "--no-first-run", "--disable-extensions"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(options=options, service=service)
        try:
            self.walk(gateway_url, console_url, admin_key, device_token, dead_token)
        finally:
            self.collect_log()
            self.driver.quit()

    def walk(self, gateway_url, console_url, admin_key, device_token, dead_token):
        driver = self.driver
        driver.get(gateway_url + "/")
        self.wait(lambda: self.by("api-key").is_displayed(), "the sign-in form")
        self.shot("01-sign-in")
        self.by("api-key").send_keys("hk_" + "0" * 64)
        self.by("sign-in").click()
        self.wait(lambda: "401" in driver.find_element(By.ID, "signin-message").text, "a wrong key refused")
        # The browser logs the refused request itself ("Failed to load resource: ... 401"): expected here, and
        # the only error this test allows.
        for entry in self.driver.get_log("browser"):
            if not re.search(r"/v1/apps - Failed to load resource: .* 401", entry["message"]):
                self.errors.append(entry["message"])
        self.by("api-key").clear()
        # From the keyboard: the key typed, Enter submits the form.
        self.by("api-key").send_keys(admin_key + Keys.ENTER)
        self.wait(lambda: self.by("compose-payload").is_displayed(), "the compose page")
        self.step("signed in with the keyboard (a wrong key is refused with 401 first)")

        bad = {"aps": {"alert": {"title": "Your order shipped", "subtitle": "Arrives Thursday",
                                 "body": "Order 1234 is on its way: track it in the app."}, "badge": "3"}}
        self.type_payload(json.dumps(bad, indent=2))
        self.wait(lambda: self.all('[data-testid="lint-findings"] > [data-rule="APS-TYPE"]'), "the APS-TYPE finding")
        finding = self.all('[data-testid="lint-findings"] > [data-rule="APS-TYPE"]')[0]
        assert "Fix: write aps.badge as an integer" in finding.text, finding.text
        self.shot("02-compose-aps-type")
        self.step("a string badge shows APS-TYPE with its fix: " + finding.text.replace("\n", " ")[:100])
        good = dict(bad)
        good["aps"] = dict(bad["aps"], badge=3)
        self.type_payload(json.dumps(good, indent=2))
        self.wait(lambda: not self.all('[data-testid="lint-findings"] > li') and self.by("lint-none").is_displayed(),
                  "APS-TYPE gone, and no finding left")
        self.step("badge 3 removes it")
        preview = self.by("preview")
        assert "Your order shipped" in preview.find_element(By.CSS_SELECTOR, '[data-testid="preview-title"]').text
        assert "Order 1234 is on its way" in preview.find_element(By.CSS_SELECTOR, '[data-testid="preview-body"]').text
        self.wait(lambda: "device model renders it" in self.by("preview").text, "the device model's rendering")
        preview = self.by("preview")
        assert "Arrives Thursday" in preview.text and "APP" in preview.text.upper(), preview.text
        self.shot("03-compose-preview")
        self.step("the preview shows title, subtitle, body and app name")

        self.by("compose-to").send_keys(device_token)
        self.by("send").click()
        self.wait(lambda: "#/notifications/" in driver.current_url, "the notification's page")
        sent_id = self.by("notification-id").text
        self.wait(lambda: self.by("notification-state").text == "done", "state done")
        self.wait(lambda: self.all('[data-testid="deliveries"] > tr[data-status="succeeded"]'), "a succeeded row")
        row = self.all('[data-testid="deliveries"] > tr')[0]
        assert row.get_attribute("data-http-status") == "200", row.text
        assert "200" in row.find_element(By.CSS_SELECTOR, '[data-testid="delivery-http-status"]').text
        apns_id = row.find_elements(By.CSS_SELECTOR, "td")[6].text
        self.shot("04-notification-done")
        self.step(f"sent {sent_id}: done, one delivery row with 200 (apns-id {apns_id})")

        driver.get(gateway_url + "/#/compose")
        self.wait(lambda: self.by("compose-payload").is_displayed(), "the compose page again")
        self.type_payload(json.dumps(good))
        self.by("compose-to").clear()
        self.by("compose-to").send_keys(dead_token)
        self.by("send").click()
        self.wait(lambda: "#/notifications/" in driver.current_url and self.by("notification-id").text != sent_id,
                  "the second notification's page")
        self.wait(lambda: self.by("notification-state").text == "done", "the second notification done")
        dead_id = self.by("notification-id").text
        self.wait(lambda: self.all('[data-testid="deliveries"] > tr[data-status="failed"]'), "a failed row")
        row = self.all('[data-testid="deliveries"] > tr')[0]
        assert row.get_attribute("data-http-status") == "410", row.text
        explanation = row.find_element(By.CSS_SELECTOR, '[data-testid="reason-summary"]').text
        assert "inactive" in explanation, explanation
        assert "Unregistered" in row.text and "unregistered" in row.find_element(
            By.CSS_SELECTOR, '[data-testid="reason-fix"]').text
        self.shot("05-notification-410")
        self.step("a send to the unregistered token: 410 Unregistered, explained: " + explanation)

        driver.get(gateway_url + "/#/notifications")
        self.wait(lambda: len(self.all('[data-testid="notifications"] tbody tr[data-state="done"]')) >= 2, "the list")
        ids = [r.find_element(By.CSS_SELECTOR, "td").text for r in self.all('[data-testid="notifications"] tbody tr')]
        assert ids[1] == sent_id, ids  # newest first
        self.shot("06-notifications")
        self.step("the notification list, newest first, both done")

        driver.get(gateway_url + "/#/devices")
        self.wait(lambda: self.by("devices-query").is_displayed(), "the devices page")
        self.by("devices-query").send_keys(device_token)
        self.by("devices-search").click()
        self.wait(lambda: self.all('[data-testid="devices"] tbody tr[data-status="active"]'), "the device")
        self.wait(lambda: self.all('[data-testid="device-history"] tr[data-status="succeeded"]'), "its history")
        history = self.all('[data-testid="device-history"] tr[data-status]')
        assert len(history) == 1 and sent_id in history[0].text, [r.text for r in history]
        assert history[0].get_attribute("data-http-status") == "200", history[0].text
        assert self.by("device-status").text == "active"
        self.shot("07-devices")
        self.step("devices: the registered device, active, its history the one delivery (200)")

        # The unregistered token, by user: listed as unregistered, and its page says why and when it was pruned.
        driver.find_element(By.ID, "devices-by").send_keys("user")
        self.by("devices-query").clear()
        self.by("devices-query").send_keys("bob" + Keys.ENTER)
        self.wait(lambda: self.all('[data-testid="devices"] tbody tr[data-status="unregistered"]'), "bob's device")
        self.click_first('[data-testid="devices"] tbody tr[data-status="unregistered"] a', "bob's device's link")
        self.wait(lambda: dead_token in driver.current_url, "the dead token's page")
        self.wait(lambda: self.all('[data-testid="device-pruned-at"]'), "when it was pruned")
        pruned = self.by("device-pruned").text
        assert "unregistered" in pruned and "Unregistered (410)" in pruned, pruned
        assert dead_id in self.by("device-pruned-at").text, self.by("device-pruned-at").text
        row = self.all('[data-testid="device-history"] tr[data-status]')[0]
        assert row.get_attribute("data-http-status") == "410" and "Unregistered" in row.text, row.text
        self.shot("07b-device-pruned")
        self.step("a pruned device: unregistered, why (" + pruned.split("\n")[1][:60] + "...), when, and its 410")

        driver.get(gateway_url + "/#/activities")
        self.wait(lambda: any("race-1" in r.text for r in self.all('[data-testid="activities"] tbody tr[data-status="active"]')),
                  "the app's Live Activities listed")
        self.wait(lambda: any("RaceAttributes" in r.text
                              for r in self.all('[data-testid="push-to-start-tokens"] tbody tr[data-status="active"]')),
                  "the app's push-to-start tokens listed")
        self.step("Live Activities: the app's activity and push-to-start token listed")
        self.by("channel-create").click()
        self.wait(lambda: self.all('[data-testid="channels"] tbody tr button'), "a channel listed")
        self.shot("08-activities-channels")
        self.step("Live Activities and channels: a channel created through the gateway is listed")
        self.click_first('[data-testid="channels"] tbody tr button', "the channel's delete button")
        self.wait(lambda: not self.all('[data-testid="channels"] tbody tr button')
                  and "Deleted." in driver.find_element(By.ID, "channels-message").text, "the channel deleted")
        self.step("the channel deleted through the gateway, gone from the list")

        driver.get(gateway_url + "/#/metrics")
        self.wait(lambda: self.by("metrics-chart").get_attribute("data-has-data") == "true", "metrics with data")
        self.wait(lambda: self.all('[data-testid="metrics-failures"] svg rect'), "failures by reason")
        self.shot("09-metrics")
        self.step("the metrics chart has data (" + self.by("metrics-totals").text.replace("\n", ", ") + ")")

        driver.set_window_size(420, 900)
        driver.get(gateway_url + "/#/compose")
        self.wait(lambda: self.by("compose-payload").is_displayed(), "compose in a narrow window")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 420, f"the page is {width}px wide in a 420px window"
        self.shot("10-compose-narrow")
        self.step(f"a narrow window (420px): no horizontal scrolling ({width}px)")
        driver.set_window_size(1280, 1000)

        driver.get(console_url)
        self.wait(lambda: self.all(f'[data-testid="emulator-deliveries"] tr[data-apns-id="{apns_id}"]'),
                  "the delivery in the emulator's log")
        self.shot("11-emulator-deliveries")
        self.step("the emulator's console lists the delivery (apns-id " + apns_id + ")")
        driver.find_element(By.ID, "filter-status").send_keys("410")
        self.by("filter").click()
        self.wait(lambda: all(r.get_attribute("data-status") == "410"
                              for r in self.all('[data-testid="emulator-deliveries"] tr[data-status]'))
                  and self.all('[data-testid="emulator-deliveries"] tr[data-status]'), "the 410 filter")
        self.step("the log filtered by status 410")

        driver.get(console_url + "#/faults")
        self.wait(lambda: self.by("fault-status").is_displayed(), "the faults page")
        self.by("fault-status").send_keys("503")
        self.by("fault-inject").click()
        self.wait(lambda: self.all('[data-testid="faults"] tr[data-fault-id]'), "the fault listed")
        self.shot("12-emulator-faults")
        self.by("faults-clear").click()
        self.wait(lambda: not self.all('[data-testid="faults"] tr[data-fault-id]'), "the faults cleared")
        self.step("a fault injected, listed and cleared")

        driver.get(console_url + "#/devices")
        self.wait(lambda: any(device_token in r.text for r in self.all('[data-testid="simulated-devices"] tr')),
                  "the simulated device")
        self.shot("13-emulator-devices")
        self.step("the simulated device listed")
        driver.get(console_url + "#/stats")
        self.wait(lambda: self.all('[data-testid="stats-chart"] svg rect'), "the stats chart")
        self.shot("14-emulator-stats")
        self.step("stats with answers by status")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    for old in os.listdir(SHOTS):  # a run's screenshots only, not an earlier run's
        if old.endswith(".png"):
            os.remove(os.path.join(SHOTS, old))
    directory = tempfile.mkdtemp(prefix="herald-console-")
    test = ConsoleTest(directory)
    print(f"console browser test: herald {HERALD}; screenshots in {SHOTS}", flush=True)
    failure = None
    try:
        test.run()
    except Exception as error:  # reported below, after the processes stop
        failure = error
    finally:
        for process in [getattr(test, "gateway", None), getattr(test, "emulator", None)]:
            if process:
                process.stop()
        shutil.rmtree(directory, ignore_errors=True)
    if test.errors:
        print("the browser logged errors:\n  " + "\n  ".join(test.errors), flush=True)
    if failure or test.errors:
        print(f"console browser test: FAILED ({failure or 'browser errors'})", flush=True)
        return 1
    print(f"console browser test: passed, {len(test.steps)} steps, no browser errors; screenshots in {SHOTS}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
