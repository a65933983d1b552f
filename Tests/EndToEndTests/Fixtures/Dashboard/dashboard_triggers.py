#!/usr/bin/env python3
"""Watches runs started by a webhook and by a dropped file appear live in the Shortcuts dashboard.

Chromium, driven through Selenium, opens the overview (which lists the automations with their
webhook and watch triggers) and then the runs page; while that page stays open, the script
posts to the webhook with its secret and drops a text file into the watched folder, and checks
that both runs appear on the page and end there, without a reload. It then opens the file
run's page, which shows the file it was given. Screenshots go to --screenshots. It prints one
JSON object and exits 0 when every check held, 1 otherwise.

    python3 dashboard_triggers.py --url http://127.0.0.1:8080/ --hook add-book --secret S \
        --drop-folder /srv/Inbox --screenshots /tmp/shots
"""

import argparse
import json
import os
import sys
import urllib.request

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from browser_session import BrowserSession, add_browser_arguments


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_browser_arguments(parser)
    parser.add_argument("--hook", required=True, help="the webhook's name")
    parser.add_argument("--secret", required=True, help="the webhook's secret")
    parser.add_argument("--body", default='{"title": "Persuasion"}', help="the JSON the webhook is sent")
    parser.add_argument("--drop-folder", required=True, help="the folder an automation watches")
    arguments = parser.parse_args()
    session = BrowserSession(arguments, height=1000)
    driver, check, screenshot, wait = session.driver, session.check, session.screenshot, session.wait

    def ended_row(trigger):
        """The id of a run of this trigger shown as succeeded, if any."""
        for row in driver.find_elements(By.CSS_SELECTOR, 'tr[data-trigger="%s"]' % trigger):
            cells = row.find_elements(By.CSS_SELECTOR, '[data-field="status"]')
            if cells and cells[0].text == "succeeded":
                return row.get_attribute("data-run-id")
        return None

    url = arguments.url
    try:
        # The overview lists both automations with their triggers.
        driver.get(url)
        triggers = wait(lambda d: d.find_element(By.CSS_SELECTOR, "table.automations")).text
        check("the overview shows the webhook", "webhook /hooks/%s" % arguments.hook in triggers, triggers)
        check("the overview shows the watched folder", "watch " in triggers, triggers)

        # The runs page, opened before the runs, listens.
        driver.get(url + "runs")
        wait(lambda d: d.find_element(By.ID, "live-status").text == "Live updates on.")
        driver.execute_script("window.openedBeforeTheRuns = 'still the same page'")

        # Another service calls the webhook.
        request = urllib.request.Request(
            url + "hooks/" + arguments.hook, data=arguments.body.encode(), method="POST",
            headers={"Authorization": "Bearer " + arguments.secret, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
            check("the webhook is accepted with its run's id", response.status == 202 and "run" in answer, json.dumps(answer))

        # A file arrives in the watched folder.
        dropped = os.path.join(arguments.drop_folder, "arrivals.txt")
        with open(dropped + ".part", "w") as file:
            file.write("Emma\nBeloved\n")
        os.rename(dropped + ".part", dropped)

        try:
            webhook_run = wait(lambda d: ended_row("webhook"))
        except TimeoutException:
            webhook_run = None
        check("the webhook's run appears on the open runs page and ends there", webhook_run == answer.get("run"), str(webhook_run))
        try:
            file_run = wait(lambda d: ended_row("file"))
        except TimeoutException:
            file_run = None
        check("the dropped file's run appears on the open runs page and ends there", bool(file_run), str(file_run))
        kept = driver.execute_script("return window.openedBeforeTheRuns")
        check("the runs page was not reloaded", kept == "still the same page", str(kept))
        screenshot("runs-triggers.png")

        # The file run's page shows the file it was given.
        if file_run:
            driver.get(url + "runs/" + file_run)
            page = wait(lambda d: d.find_element(By.TAG_NAME, "main")).text
            check("the file run's page shows the file and the output", "arrivals.txt" in page and "Output\n2\n" in page, page[:600])
            screenshot("run-file.png")
    finally:
        status = session.finish()
    return status


if __name__ == "__main__":
    sys.exit(main())
