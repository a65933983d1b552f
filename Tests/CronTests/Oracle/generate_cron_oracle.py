#!/usr/bin/env python3
"""Regenerates Tests/CronTests/Fixtures/cron-oracle.json.

The fixture holds random cron expressions (fixed seed), each evaluated in two
time zones from a start instant, with the next five fire times as Unix seconds.
The Swift test (CronOracleTests.swift) parses every expression and compares.

Two independent oracles produce the expected times:

* croniter (PyPI, `pip install croniter`), for the expressions whose meaning
  croniter shares with the documented rules, and only when no UTC-offset change
  lies between the start and the last fire time (croniter's DST handling
  differs from Vixie cron's).
* A brute-force scan written here from the documented rules: it walks real
  time one minute at a time, reads the local wall clock, and applies the
  matching and daylight-saving rules literally. It is used for everything
  croniter cannot express, and for windows that cross a DST change.

Every croniter result is also checked against the brute-force scan; the script
stops with an error if they ever disagree, so both oracles vouch for each
other on the shared part.

Where croniter's meaning differs from the documented rules (so those cases use
the brute-force scan instead):

* `L-n`, `LW` and `dL` written that way are not croniter syntax (`dL` is
  rewritten as croniter's `Ld`); `nW` with n > 28 is clamped to the month's
  last day by croniter, while here a month without day n has no `nW` day.
* `W`, `#` or `L` in one day field combined with a restricted other day field:
  croniter keeps these as an intersection, the documented rule is a union.
* croniter caps day-of-week steps at 6 (`1/3` is Mon, Thu) where the
  documented field maximum is 7 (`1/3` is Mon, Thu, Sun).
* A restricted day field that covers every day (`*/1`, `0-6`) collapses to `*`
  in croniter when the other day field contains a `*`, turning the union into
  an intersection.
* A day field that begins with `*` (`*/2`) with a restricted other day field:
  cronie (the reference) intersects the two fields, croniter takes the union.
* croniter does not support plain weekdays mixed with `#`/`L` in one field.

Usage: python3 generate_cron_oracle.py   (needs croniter; about a minute)
"""

import bisect
import datetime
import json
import os
import random
import sys
from importlib import metadata
from zoneinfo import ZoneInfo

from croniter import croniter

SEED = 20_240_917
EXPRESSION_COUNT = 1_200
ZONES_PER_EXPRESSION = 2
FIRE_TIMES = 5
ZONES = ["UTC", "America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kolkata"]
WINDOW_START = int(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
WINDOW_END = int(datetime.datetime(2033, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
SEARCH_LIMIT = 8 * 366 * 86_400  # how far past the previous fire time a search looks
MAX_FIRE_GAP = 7 * 365 * 86_400  # drop cases that get close to the search limit
EPOCH = datetime.datetime(1970, 1, 1)

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "cron-oracle.json")

MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
WEEKDAY_NAMES = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
BOUNDS = {"second": (0, 59), "minute": (0, 59), "hour": (0, 23), "dom": (1, 31), "month": (1, 12), "dow": (0, 7)}


# --------------------------------------------------------------------------
# Time zones: offsets and transitions from the system tz database
# --------------------------------------------------------------------------

class Zone:
    def __init__(self, name):
        self.name = name
        self.info = ZoneInfo(name)
        self.starts = []  # transition instants, ascending
        self.offsets = []  # offset from each transition on
        lower = WINDOW_START - 400 * 86_400
        upper = WINDOW_END + 40 * 366 * 86_400
        self.upper = upper
        self.initial = self._raw_offset(lower)
        previous = self.initial
        for instant in range(lower, upper, 3_600):
            current = self._raw_offset(instant)
            if current != previous:
                low, high = instant - 3_600, instant  # offset changes in (low, high]
                while high - low > 1:
                    middle = (low + high) // 2
                    if self._raw_offset(middle) == previous:
                        low = middle
                    else:
                        high = middle
                self.starts.append(high)
                self.offsets.append(current)
                previous = current
        self.distinct_offsets = sorted(set([self.initial] + self.offsets))

    def _raw_offset(self, instant):
        moment = datetime.datetime.fromtimestamp(instant, datetime.timezone.utc).astimezone(self.info)
        return int(moment.utcoffset().total_seconds())

    def offset(self, instant):
        index = bisect.bisect_right(self.starts, instant)
        return self.initial if index == 0 else self.offsets[index - 1]

    def next_transition(self, instant):
        index = bisect.bisect_right(self.starts, instant)
        return self.starts[index] if index < len(self.starts) else None

    def has_transition_between(self, first, last):
        index = bisect.bisect_right(self.starts, first)
        return index < len(self.starts) and self.starts[index] <= last

    def is_second_pass(self, instant):
        """True when the same wall-clock time already occurred at an earlier instant."""
        wall = instant + self.offset(instant)
        for offset in self.distinct_offsets:
            earlier = wall - offset
            if earlier < instant and self.offset(earlier) == offset:
                return True
        return False


# --------------------------------------------------------------------------
# Expressions: structured items, their text, and matching by the documented rules
# --------------------------------------------------------------------------

def plain_values(item, field):
    low, high = BOUNDS[field]
    kind = item[0]
    if kind in ("every", "any"):
        return set(range(low, high + 1))
    if kind == "value":
        return {item[1]}
    if kind == "range":
        return set(range(item[1], item[2] + 1))
    if kind == "step":
        return set(range(item[1], item[2] + 1, item[3]))
    return set()


class Expression:
    def __init__(self, fields, texts, has_seconds, macro=None):
        self.fields = fields  # dict field -> list of items
        self.texts = texts  # dict field -> text as written
        self.has_seconds = has_seconds
        self.macro = macro
        self.seconds = sorted(plain_values_of(fields["second"], "second")) if has_seconds else [0]
        self.minutes = plain_values_of(fields["minute"], "minute")
        self.hours = plain_values_of(fields["hour"], "hour")
        self.months = plain_values_of(fields["month"], "month")
        self.dom_restricted = texts["dom"] not in ("*", "?")
        self.dow_restricted = texts["dow"] not in ("*", "?")
        # cronie's DOM_STAR / DOW_STAR: a field that begins with `*` is unrestricted for the OR rule.
        self.dom_star = texts["dom"].startswith("*") or texts["dom"] == "?"
        self.dow_star = texts["dow"].startswith("*") or texts["dow"] == "?"
        time_fields = ["second", "minute", "hour"] if has_seconds else ["minute", "hour"]
        self.fixed = all(item[0] == "value" for field in time_fields for item in fields[field])
        self._day_cache = {}

    @property
    def text(self):
        if self.macro:
            return self.macro
        order = (["second"] if self.has_seconds else []) + ["minute", "hour", "dom", "month", "dow"]
        return " ".join(self.texts[field] for field in order)

    def day_matches(self, year, month, day):
        key = (year, month, day)
        cached = self._day_cache.get(key)
        if cached is None:
            cached = self._compute_day_match(year, month, day)
            self._day_cache[key] = cached
        return cached

    def _compute_day_match(self, year, month, day):
        if month not in self.months:
            return False
        length = days_in_month(year, month)
        weekday = (datetime.date(year, month, day).weekday() + 1) % 7  # 0 = Sunday
        dom = True
        if self.dom_restricted:
            dom = any(dom_item_matches(item, year, month, day, length) for item in self.fields["dom"])
        dow = True
        if self.dow_restricted:
            dow = any(dow_item_matches(item, day, weekday, length) for item in self.fields["dow"])
        if not self.dom_star and not self.dow_star:
            return dom or dow
        return dom and dow

    def wall_matches(self, wall):
        moment = EPOCH + datetime.timedelta(seconds=wall)
        return (moment.second in self.seconds and moment.minute in self.minutes and moment.hour in self.hours
                and self.day_matches(moment.year, moment.month, moment.day))


def plain_values_of(items, field):
    values = set()
    for item in items:
        values |= plain_values(item, field)
    return values


def days_in_month(year, month):
    if month == 12:
        return 31
    return (datetime.date(year, month + 1, 1) - datetime.date(year, month, 1)).days


def is_weekday(year, month, day):
    return datetime.date(year, month, day).weekday() < 5  # Monday..Friday


def dom_item_matches(item, year, month, day, length):
    kind = item[0]
    if kind == "last":
        return day == length - item[1]
    if kind == "lastweekday":
        candidate = length
        while not is_weekday(year, month, candidate):
            candidate -= 1
        return day == candidate
    if kind == "nearest":
        target = item[1]
        if target > length:
            return False
        python_weekday = datetime.date(year, month, target).weekday()
        if python_weekday == 5:  # Saturday: the Friday before, unless that leaves the month
            nearest = target - 1 if target > 1 else target + 2
        elif python_weekday == 6:  # Sunday: the Monday after, unless that leaves the month
            nearest = target + 1 if target < length else target - 2
        else:
            nearest = target
        return day == nearest
    return day in plain_values(item, "dom")


def dow_item_matches(item, day, weekday, length):
    kind = item[0]
    if kind == "nth":
        return weekday == item[1] % 7 and (day - 1) // 7 + 1 == item[2]
    if kind == "lastdow":
        return weekday == item[1] % 7 and day + 7 > length
    return weekday in {value % 7 for value in plain_values(item, "dow")}


# --------------------------------------------------------------------------
# Random generation
# --------------------------------------------------------------------------

def random_case(rng, text):
    choice = rng.random()
    if choice < 0.6:
        return text.upper()
    if choice < 0.8:
        return text.lower()
    return text.capitalize()


def render_value(rng, field, value, allow_names):
    if allow_names and field == "month" and rng.random() < 0.4:
        return random_case(rng, MONTH_NAMES[value - 1])
    if allow_names and field == "dow" and value <= 6 and rng.random() < 0.4:
        return random_case(rng, WEEKDAY_NAMES[value])
    return str(value)


def numeric_item(rng, field, low, high, kind):
    """One plain item (value, range or step) and its text."""
    names = field in ("month", "dow")
    if kind == "value":
        value = rng.randint(low, high)
        return ("value", value), render_value(rng, field, value, names)
    if kind == "range":
        start = rng.randint(low, high - 1)
        end = rng.randint(start + 1, min(high, start + max(2, (high - low) // 2)))
        return ("range", start, end), f"{render_value(rng, field, start, names)}-{render_value(rng, field, end, names)}"
    if kind == "wildcard-step":
        if high - low > 20:
            step = rng.choice([step for step in (2, 3, 4, 5, 6, 10, 12, 15, 20, 30) if step <= high - low])
        else:
            step = rng.randint(2, max(2, (high - low) // 2))
        return ("step", low, high, step, "wildcard"), f"*/{step}"
    if kind == "range-step":
        start = rng.randint(low, high - 2)
        end = rng.randint(start + 2, high)
        step = rng.randint(2, max(2, (end - start) // 2 + 1))
        return ("step", start, end, step, "range"), \
            f"{render_value(rng, field, start, names)}-{render_value(rng, field, end, names)}/{step}"
    # open step a/n: from a through the field's maximum
    start = rng.randint(low, high - 1)
    step = rng.randint(2, max(2, (high - start) // 2 + 1))
    return ("step", start, high, step, "open"), f"{render_value(rng, field, start, names)}/{step}"


def plain_field(rng, field, weights):
    low, high = BOUNDS[field]
    if field == "dow":
        high = 7
    kinds = list(weights)
    kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
    if kind == "every":
        return [("every",)], "*"
    if kind == "list":
        count = rng.randint(2, 4)
        items, texts = [], []
        for _ in range(count):
            part_kind = rng.choices(["value", "range", "range-step"], [6, 2, 1])[0]
            item, text = numeric_item(rng, field, low, high, part_kind)
            items.append(item)
            texts.append(text)
        return items, ",".join(texts)
    item, text = numeric_item(rng, field, low, high, kind)
    return [item], text


TIME_WEIGHTS = {"every": 3, "value": 6, "list": 3, "range": 2, "wildcard-step": 3, "range-step": 2, "open-step": 1}
HOUR_WEIGHTS = {"every": 4, "value": 6, "list": 3, "range": 2, "wildcard-step": 3, "range-step": 2, "open-step": 1}


def dom_field(rng):
    choice = rng.random()
    if choice < 0.45:
        return [("every",)], "*"
    if choice < 0.50:
        return [("any",)], "?"
    if choice < 0.60:
        return [("last", 0)], "L"
    if choice < 0.65:
        offset = rng.randint(1, 6)
        return [("last", offset)], f"L-{offset}"
    if choice < 0.72:
        day = rng.randint(1, 31)
        return [("nearest", day)], f"{day}W"
    if choice < 0.75:
        return [("lastweekday",)], "LW"
    if choice < 0.78:
        day = rng.randint(1, 20)
        return [("value", day), ("last", 0)], f"{day},L"
    return plain_field(rng, "dom", {"value": 5, "list": 3, "range": 2, "wildcard-step": 2, "range-step": 1, "open-step": 1})


def month_field(rng):
    if rng.random() < 0.6:
        return [("every",)], "*"
    return plain_field(rng, "month", {"value": 3, "list": 3, "range": 3, "wildcard-step": 2, "range-step": 1, "open-step": 1})


def dow_field(rng):
    choice = rng.random()
    if choice < 0.50:
        return [("every",)], "*"
    if choice < 0.55:
        return [("any",)], "?"
    if choice < 0.63:
        weekday, ordinal = rng.randint(0, 6), rng.randint(1, 5)
        return [("nth", weekday, ordinal)], f"{render_value(rng, 'dow', weekday, True)}#{ordinal}"
    if choice < 0.70:
        weekday = rng.randint(0, 7)
        return [("lastdow", weekday)], f"{render_value(rng, 'dow', weekday, True)}L"
    if choice < 0.72:
        return [("value", 7)], "7"
    if choice < 0.74:
        start = rng.randint(1, 6)
        return [("range", start, 7)], f"{start}-7"
    return plain_field(rng, "dow", {"value": 4, "list": 3, "range": 4, "wildcard-step": 2, "range-step": 1, "open-step": 1})


MACROS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}


def macro_expression(name):
    minute, hour, dom, month, dow = MACROS[name.lower()].split()

    def items_of(text, field):
        return [("every",)] if text == "*" else [("value", int(text))]
    fields = {"second": [("value", 0)], "minute": items_of(minute, "minute"), "hour": items_of(hour, "hour"),
              "dom": items_of(dom, "dom"), "month": items_of(month, "month"), "dow": items_of(dow, "dow")}
    texts = {"second": "0", "minute": minute, "hour": hour, "dom": dom, "month": month, "dow": dow}
    return Expression(fields, texts, False, macro=name)


def random_expression(rng):
    if rng.random() < 0.03:
        name = rng.choice(sorted(MACROS))
        return macro_expression(name if rng.random() < 0.7 else name.upper())  # macros are case-insensitive
    has_seconds = rng.random() < 0.2
    fields, texts = {}, {}
    if has_seconds:
        fields["second"], texts["second"] = plain_field(rng, "second", TIME_WEIGHTS)
    else:
        fields["second"], texts["second"] = [("value", 0)], "0"
    fields["minute"], texts["minute"] = plain_field(rng, "minute", TIME_WEIGHTS)
    fields["hour"], texts["hour"] = plain_field(rng, "hour", HOUR_WEIGHTS)
    fields["dom"], texts["dom"] = dom_field(rng)
    fields["month"], texts["month"] = month_field(rng)
    fields["dow"], texts["dow"] = dow_field(rng)
    return Expression(fields, texts, has_seconds)


# --------------------------------------------------------------------------
# Oracle 1: brute force by the documented rules
# --------------------------------------------------------------------------

def brute_force(expression, zone, start, count):
    """Walks real time minute by minute (skipping whole non-matching local days)."""
    fires = []
    instant = start + 1
    instant -= (instant + zone.offset(instant)) % 60  # start of the wall-clock minute
    deadline = start + SEARCH_LIMIT

    def emit(candidate):
        nonlocal deadline
        if candidate > start and (not fires or candidate > fires[-1]):
            fires.append(candidate)
            deadline = candidate + SEARCH_LIMIT

    while len(fires) < count and instant <= deadline:
        offset = zone.offset(instant)
        previous_offset = zone.offset(instant - 1)
        if expression.fixed and offset > previous_offset:
            # `instant` is the first instant after a gap: fixed times inside it fire now.
            gap = range(instant + previous_offset, instant + offset, 60)
            if any(expression.wall_matches(minute + second) for minute in gap for second in expression.seconds):
                emit(instant)
        wall = instant + offset
        moment = EPOCH + datetime.timedelta(seconds=wall)
        if not expression.day_matches(moment.year, moment.month, moment.day):
            target = instant + 86_400 - wall % 86_400  # next local midnight…
            transition = zone.next_transition(instant)
            if transition is not None and transition < target:
                target = transition  # …but never past an offset change
            instant = target
            continue
        if moment.hour in expression.hours and moment.minute in expression.minutes:
            for second in expression.seconds:
                candidate = instant + second
                if expression.fixed and zone.is_second_pass(candidate):
                    continue  # a fixed time fires only at the first occurrence
                emit(candidate)
                if len(fires) == count:
                    break
        instant += 60
    return fires


# --------------------------------------------------------------------------
# Oracle 2: croniter, where its meaning matches
# --------------------------------------------------------------------------

def croniter_text(expression):
    """The expression in croniter's syntax, or None when croniter means something else."""
    fields, texts = expression.fields, expression.texts
    dom_kinds = {item[0] for item in fields["dom"]}
    dow_kinds = {item[0] for item in fields["dow"]}
    if dom_kinds & {"lastweekday"} or any(item[0] == "last" and item[1] > 0 for item in fields["dom"]):
        return None
    if "nearest" in dom_kinds:
        if expression.dow_restricted or any(item[0] == "nearest" and item[1] > 28 for item in fields["dom"]):
            return None
    if dow_kinds & {"nth", "lastdow"}:
        if expression.dom_restricted or dow_kinds - {"nth", "lastdow"}:
            return None
    for item in fields["dow"]:
        if item[0] == "step" and item[2] == 7 and item[4] != "wildcard":
            return None  # */n agrees; a/n and a-7/n do not
    if expression.dom_restricted and expression.dow_restricted and (expression.dom_star or expression.dow_star):
        return None  # croniter takes the union; cronie intersects when a day field begins with `*`
    if expression.dom_restricted and expression.dow_restricted:
        dom_plain = plain_values_of(fields["dom"], "dom")
        dow_plain = {value % 7 for value in plain_values_of(fields["dow"], "dow")}
        if len(dom_plain) == 31 and "*" in texts["dow"]:
            return None
        if len(dow_plain) == 7 and "*" in texts["dom"]:
            return None
    if expression.macro:
        return expression.macro
    dow_text = texts["dow"]
    if "lastdow" in dow_kinds:
        dow_text = ",".join(f"L{item[1] % 7}" for item in fields["dow"])
    parts = ([texts["second"]] if expression.has_seconds else []) + \
        [texts["minute"], texts["hour"], texts["dom"], texts["month"], dow_text]
    return " ".join(parts)


def croniter_fires(text, expression, zone, start, count):
    moment = datetime.datetime.fromtimestamp(start, zone.info)
    iterator = croniter(text, moment, second_at_beginning=expression.has_seconds)
    return [int(iterator.get_next(datetime.datetime).timestamp()) for _ in range(count)]


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def random_start(rng, zone):
    if zone.starts and rng.random() < 0.3:
        candidates = [t for t in zone.starts if WINDOW_START < t < WINDOW_END]
        transition = rng.choice(candidates)
        return transition - rng.randint(60, 48 * 3_600) - (0 if rng.random() < 0.5 else rng.randint(1, 59))
    start = rng.randint(WINDOW_START, WINDOW_END)
    return start - start % 60 if rng.random() < 0.2 else start


def main():
    rng = random.Random(SEED)
    zones = {name: Zone(name) for name in ZONES}
    cases = []
    counts = {"croniter": 0, "bruteforce": 0}
    reasons = {"croniter cannot express": 0, "window crosses an offset change": 0}
    verified_against_croniter = 0
    dropped = 0
    expressions_seen = set()
    while len(expressions_seen) < EXPRESSION_COUNT:
        expression = random_expression(rng)
        if expression.text in expressions_seen:
            continue
        zone_names = rng.sample(ZONES, ZONES_PER_EXPRESSION)
        produced = []
        for zone_name in zone_names:
            zone = zones[zone_name]
            start = random_start(rng, zone)
            expected = brute_force(expression, zone, start, FIRE_TIMES)
            gaps = [b - a for a, b in zip([start] + expected, expected)]
            if len(expected) < FIRE_TIMES or max(gaps) > MAX_FIRE_GAP or expected[-1] > zone.upper - 366 * 86_400:
                produced = None
                break
            source = "bruteforce"
            text = croniter_text(expression)
            if text is None:
                reasons["croniter cannot express"] += 1
            elif zone.has_transition_between(start, expected[-1]):
                reasons["window crosses an offset change"] += 1
            else:
                from_croniter = croniter_fires(text, expression, zone, start, FIRE_TIMES)
                if from_croniter != expected:
                    sys.exit(f"oracles disagree for {expression.text!r} ({text!r}) in {zone_name} from {start}:\n"
                             f"  croniter    {from_croniter}\n  brute force {expected}")
                verified_against_croniter += 1
                source = "croniter"
            produced.append({"expression": expression.text, "timeZone": zone_name, "start": start,
                             "source": source, "fireTimes": expected})
        if produced is None:
            dropped += 1
            continue
        expressions_seen.add(expression.text)
        for case in produced:
            counts[case["source"]] += 1
        cases.extend(produced)

    document = {
        "generator": "Tests/CronTests/Oracle/generate_cron_oracle.py",
        "seed": SEED,
        "croniterVersion": metadata.version("croniter"),
        "fireTimesPerCase": FIRE_TIMES,
        "expressionCount": len(expressions_seen),
        "caseCount": len(cases),
        "casesBySource": counts,
        "bruteForceReasons": reasons,
        "droppedTooRare": dropped,
        "cases": cases,
    }
    header = {key: value for key, value in document.items() if key != "cases"}
    with open(FIXTURE, "w", encoding="utf-8") as output:
        output.write(json.dumps(header, indent=2)[:-2] + ',\n  "cases": [\n')
        output.write(",\n".join("    " + json.dumps(case, separators=(",", ":")) for case in cases))
        output.write("\n  ]\n}\n")
    print(json.dumps(header, indent=2))
    print(f"croniter and brute force agreed on {verified_against_croniter} cases")


if __name__ == "__main__":
    main()
