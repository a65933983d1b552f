"""What the dashboard's browser scripts share: Chromium through Selenium, their checks and screenshots.

    session = BrowserSession(arguments)       # --chromium, --chromedriver, --screenshots
    session.check("the page lists it", held, detail)
    session.screenshot("page.png")
    session.finish()                          # prints the report; the exit status
"""

import json
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def add_browser_arguments(parser):
    """The arguments every browser script takes."""
    parser.add_argument("--url", required=True, help="the dashboard's address, ending with /")
    parser.add_argument("--screenshots", required=True, help="the folder the screenshots are saved in")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")


class BrowserSession:
    """A headless Chromium window, the checks made in it and the screenshots taken."""

    def __init__(self, arguments, height=1100):
        os.makedirs(arguments.screenshots, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = arguments.chromium
        for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,%d" % height]:
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(arguments.chromedriver), options=options)
        self.folder = arguments.screenshots
        self.report = {"checks": [], "screenshots": []}

    def check(self, name, held, detail=""):
        self.report["checks"].append({"name": name, "held": bool(held), "detail": detail})

    def screenshot(self, name):
        path = os.path.join(self.folder, name)
        self.driver.save_screenshot(path)
        self.report["screenshots"].append(path)

    def wait(self, condition, seconds=30):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition)

    def finish(self):
        """Closes the browser, prints the report, and gives the exit status: 0 when every check held."""
        self.driver.quit()
        print(json.dumps(self.report, indent=2))
        return 0 if all(item["held"] for item in self.report["checks"]) else 1
