#!/usr/bin/env python3
"""Drives the Shortcuts dashboard in a real browser, Chromium through Selenium, as a person would.

It checks that the overview lists a scheduled automation with its next due time; that a run
started from a workflow's form appears, without a reload, on the runs page opened before; and
that a run that fails shows its trace with the failing step marked, on its page, as it ends.
Screenshots of each step go to --screenshots. It prints one JSON object and exits 0 when every
check held, 1 otherwise.

    python3 dashboard_browser.py --url http://127.0.0.1:8080/ --screenshots /tmp/shots
"""

import argparse
import sys

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from browser_session import BrowserSession, add_browser_arguments


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_browser_arguments(parser)
    parser.add_argument("--automation", default="morning-digest.yaml", help="a scheduled automation's file")
    parser.add_argument("--form-workflow", default="add-and-open.yaml", help="a workflow with a text input")
    parser.add_argument("--failing-workflow", default="slow-failing-check.yaml", help="a workflow that fails after a while")
    arguments = parser.parse_args()
    session = BrowserSession(arguments, height=1100)
    driver, check, screenshot, wait = session.driver, session.check, session.screenshot, session.wait

    url = arguments.url
    try:
        # The overview lists the scheduled automation with its next due time.
        driver.get(url)
        row = wait(lambda d: d.find_element(
            By.CSS_SELECTOR, 'table.automations tr[data-workflow-file="%s"]' % arguments.automation))
        due = row.find_elements(By.CSS_SELECTOR, "td time[datetime]")
        check("the overview lists the scheduled automation", row.is_displayed(), row.text)
        check("the automation shows its next due time", len(due) == 1 and due[0].text != "", due[0].text if due else "")

        # The runs page, opened before any run of this session, listens for runs.
        driver.get(url + "runs")
        wait(lambda d: d.find_element(By.ID, "live-status").text == "Live updates on.")
        driver.execute_script("window.openedBeforeTheRun = 'still the same page'")
        runs_window = driver.current_window_handle

        # A run started from the form, in another tab.
        driver.switch_to.new_window("tab")
        form_window = driver.current_window_handle
        driver.get(url + "workflows/" + arguments.form_workflow)
        field = wait(lambda d: d.find_element(By.CSS_SELECTOR, ".run-form input[type=text]"))
        field.send_keys("Emma")
        screenshot("form.png")
        driver.find_element(By.CSS_SELECTOR, ".run-form button[type=submit]").click()
        wait(lambda d: "/runs/" in d.current_url)
        run_id = driver.find_element(By.TAG_NAME, "body").get_attribute("data-run-id")
        check("the form leads to the run's page", bool(run_id), driver.current_url)

        # It appears on the runs page that was already open, without a reload.
        driver.switch_to.window(runs_window)
        selector = 'tr[data-run-id="%s"] [data-field="status"]' % run_id
        try:
            wait(lambda d: any(cell.text == "succeeded" for cell in d.find_elements(By.CSS_SELECTOR, selector)))
            appeared = True
        except TimeoutException:
            appeared = False
        check("the run appears on the open runs page and ends there", appeared, run_id or "")
        kept = driver.execute_script("return window.openedBeforeTheRun")
        check("the runs page was not reloaded", kept == "still the same page", str(kept))
        screenshot("runs-live.png")

        # A run that fails: its page, opened while it runs, shows the failing step when it ends.
        driver.switch_to.window(form_window)
        driver.get(url + "workflows/" + arguments.failing_workflow)
        wait(lambda d: d.find_element(By.CSS_SELECTOR, ".run-form button[type=submit]")).click()
        wait(lambda d: "/runs/" in d.current_url)
        first_status = driver.find_element(By.CSS_SELECTOR, '#run-details [data-field="status"]').text
        check("the failing run's page opens while it runs", first_status == "running", first_status)
        driver.execute_script("window.openedWhileRunning = 'still the same page'")
        try:
            failing = wait(lambda d: d.find_element(By.CSS_SELECTOR, "li.step.failing"))
            text = failing.text
        except TimeoutException:
            text = ""
        check("the trace marks the failing step", "the run failed here" in text and "backup disk full" in text, text)
        status = driver.find_element(By.CSS_SELECTOR, '#run-details [data-field="status"]').text
        check("the run's page shows it failed", status == "failed", status)
        kept = driver.execute_script("return window.openedWhileRunning")
        check("the run's page was not reloaded", kept == "still the same page", str(kept))
        driver.execute_script("document.querySelector('li.step.failing').scrollIntoView({block: 'center'})")
        screenshot("run-failed.png")

        # The overview once runs happened.
        driver.get(url)
        wait(lambda d: d.find_element(By.ID, "live-status").text == "Live updates on.")
        screenshot("overview.png")
    finally:
        status = session.finish()
    return status


if __name__ == "__main__":
    sys.exit(main())
