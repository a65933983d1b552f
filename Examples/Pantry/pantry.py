#!/usr/bin/env python3
"""Pantry: a kitchen pantry as a Shortcuts extension, in Python with the standard library only.

Install it with `shortcuts extensions add Examples/Pantry/pantry.py`; the engine then starts
`pantry.py extension serve` on first use and speaks the extension protocol (JSON-RPC 2.0, one
message per line) with it on standard input and output. Standard error goes to the engine's log.

Data lives in pantry.json in $PANTRY_HOME, else beside this file. With $PANTRY_TRACE set, every
request received is appended to that file, one JSON line each.
"""

import datetime
import json
import os
import sys
import threading
import uuid

APP = "Pantry"
PROTOCOL_VERSION = 1


def string_property(name, title):
    return {"name": name, "title": title, "type": "String", "isSortable": True,
            "comparators": ["equalTo", "notEqualTo", "contains", "hasPrefix", "hasSuffix"]}


ORDERED = ["equalTo", "notEqualTo", "lessThan", "lessThanOrEqualTo", "greaterThan", "greaterThanOrEqualTo", "isBetween"]

UNITS = [("piece", "Piece"), ("gram", "Gram"), ("liter", "Liter"), ("pack", "Pack")]


def parameter(name, title, type_, optional=False, default=None, ask=None):
    described = {"name": name, "title": title, "type": type_ + ("?" if optional else ""),
                 "isOptional": optional, "isRequired": not optional and default is None}
    if default is not None:
        described["defaultValue"] = default
    if ask:
        described["requestValueDialog"] = ask
    return described


def intent(name, title, summary, parameters, value_type, description=None):
    return {"name": APP + "." + name, "title": title, "description": description, "openAppWhenRun": False,
            "isDiscoverable": True, "summary": summary, "parameters": parameters,
            "result": {"type": "ReturnsValue<%s> & ProvidesDialog" % value_type, "valueType": value_type,
                       "providesDialog": True, "showsSnippet": False}}


METADATA = {"formatVersion": 1, "apps": [{
    "name": APP, "locales": ["en"], "shortcuts": [],
    "enums": [{"name": APP + ".Unit", "title": "Unit", "cases": [{"value": v, "title": t} for v, t in UNITS]}],
    "entities": [{
        "name": APP + ".PantryItem", "title": "Pantry Item",
        "properties": [
            string_property("name", "Name"),
            string_property("category", "Category"),
            {"name": "quantity", "title": "Quantity", "type": "Int", "comparators": ORDERED, "isSortable": True},
            {"name": "unit", "title": "Unit", "type": "Unit", "comparators": ["equalTo", "notEqualTo"], "isSortable": False},
            {"name": "expires", "title": "Expires", "type": "Date?", "comparators": ["lessThan", "greaterThan", "isBetween"],
             "isSortable": True},
        ],
        "sortOptions": ["name", "category", "quantity", "expires"],
        "supportsPropertyQuery": True, "supportsStringSearch": True, "isEnumerable": False}],
    "intents": [
        intent("AddItem", "Add Item", "Add ${quantity} ${unit} of ${name}", [
            parameter("name", "Name", "String", ask="What did you buy?"),
            parameter("quantity", "Quantity", "Int", default="1"),
            parameter("unit", "Unit", "Unit", default="Piece"),
            parameter("category", "Category", "String", optional=True),
            parameter("expires", "Expires", "Date", optional=True)], "PantryItem",
            "Adds an item to the pantry, or more of one already there."),
        intent("UseItem", "Use Item", "Use ${amount} of ${item}", [
            parameter("item", "Item", "PantryItem"),
            parameter("amount", "Amount", "Int", default="1")], "PantryItem"),
        intent("Restock", "Restock", "Restock ${item}", [
            parameter("item", "Item", "PantryItem"),
            parameter("quantity", "Quantity", "Int", optional=True)], "PantryItem",
            "Asks how many were bought when the quantity is not given."),
        intent("ExpiringSoon", "Expiring Soon", "Items expiring within ${days} days", [
            parameter("days", "Days", "Int", default="7")], "[PantryItem]"),
    ]}]}


class IntentFailure(Exception):
    """An intent or query failed: answered as error -32000 with this message."""


class CannotAsk(Exception):
    """The engine could not ask the question (error -32003)."""


class Pantry:
    def __init__(self):
        folder = os.environ.get("PANTRY_HOME") or os.path.dirname(os.path.abspath(__file__))
        self.path = os.path.join(folder, "pantry.json")
        self.lock = threading.Lock()

    def load(self):
        try:
            with open(self.path) as file:
                return json.load(file)
        except FileNotFoundError:
            return []

    def save(self, items):
        temporary = self.path + ".tmp"
        with open(temporary, "w") as file:
            json.dump(items, file, indent=2)
        os.replace(temporary, self.path)


pantry = Pantry()


def entity(item):
    unit = dict(UNITS).get(item["unit"], item["unit"])
    return {"type": "PantryItem", "id": item["id"], "title": item["name"],
            "subtitle": "%d %s" % (item["quantity"], unit.lower() + ("s" if item["quantity"] != 1 else "")),
            "properties": {key: item.get(key) for key in ("name", "category", "quantity", "unit", "expires")}}


def parse_date(text):
    if text is None:
        return None
    date = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return date if date.tzinfo else date.replace(tzinfo=datetime.timezone.utc)


def comparable(property_name, value):
    if property_name == "expires":
        return parse_date(value)
    if isinstance(value, str):
        return value.casefold()
    return value


def matches(item, condition):
    name, comparator, operands = condition["property"], condition["comparator"], condition["operands"]
    value = comparable(name, item.get(name))
    operands = [comparable(name, operand) for operand in operands]
    if comparator == "equalTo":
        return value == operands[0]
    if comparator == "notEqualTo":
        return value != operands[0]
    if comparator in ("contains", "hasPrefix", "hasSuffix"):
        if value is None:
            return False
        return {"contains": operands[0] in value, "hasPrefix": value.startswith(operands[0]),
                "hasSuffix": value.endswith(operands[0])}[comparator]
    if value is None:
        return False
    if comparator == "lessThan":
        return value < operands[0]
    if comparator == "lessThanOrEqualTo":
        return value <= operands[0]
    if comparator == "greaterThan":
        return value > operands[0]
    if comparator == "greaterThanOrEqualTo":
        return value >= operands[0]
    if comparator == "isBetween":
        return operands[0] <= value <= operands[1]
    raise IntentFailure("the comparator %s is not supported" % comparator)


def query(params):
    items = pantry.load()
    conditions = params.get("conditions", [])
    test = all if params.get("mode", "and") == "and" else any
    found = [item for item in items if not conditions or test(matches(item, c) for c in conditions)]
    for sort in reversed(params.get("sort", [])):
        key = sort["property"]
        found.sort(key=lambda item: (item.get(key) is None, comparable(key, item.get(key))),
                   reverse=sort["order"] == "descending")
    if params.get("limit") is not None:
        found = found[:params["limit"]]
    return {"entities": [entity(item) for item in found]}


def stored(items, reference):
    identifier = reference["id"] if isinstance(reference, dict) else reference
    for item in items:
        if item["id"] == identifier:
            return item
    raise IntentFailure("there is no item %s in the pantry" % (reference.get("title") if isinstance(reference, dict) else reference))


class Server:
    def __init__(self):
        self.write_lock = threading.Lock()
        self.waiting = {}
        self.answered = threading.Condition()
        self.next_id = 0

    def send(self, message):
        message["jsonrpc"] = "2.0"
        with self.write_lock:
            sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
            sys.stdout.flush()

    def ask(self, request_id, name, question, type_):
        with self.answered:
            self.next_id += 1
            ask_id = "ask-%d" % self.next_id
        self.send({"id": ask_id, "method": "interaction/requestValue",
                   "params": {"requestId": request_id, "name": name, "question": question, "type": type_}})
        with self.answered:
            while ask_id not in self.waiting:
                self.answered.wait()
            answer = self.waiting.pop(ask_id)
        if "error" in answer:
            raise CannotAsk(answer["error"])
        return answer["result"]["value"]

    def perform(self, request_id, params):
        name, arguments = params["intent"], params["arguments"]
        with pantry.lock:
            items = pantry.load()
            if name == "AddItem":
                key = arguments["name"].strip().casefold()
                item = next((i for i in items if i["name"].casefold() == key), None)
                if item is None:
                    item = {"id": str(uuid.uuid4()), "name": arguments["name"].strip(), "quantity": 0,
                            "unit": arguments.get("unit") or "piece", "category": arguments.get("category"),
                            "expires": arguments.get("expires")}
                    items.append(item)
                item["quantity"] += int(arguments.get("quantity") or 1)
                pantry.save(items)
                return {"value": entity(item), "dialog": "Added %d %s." % (int(arguments.get("quantity") or 1), item["name"])}
            if name == "UseItem":
                item = stored(items, arguments["item"])
                amount = int(arguments.get("amount") or 1)
                if amount > item["quantity"]:
                    raise IntentFailure("only %d %s left" % (item["quantity"], item["name"]))
                item["quantity"] -= amount
                pantry.save(items)
                return {"value": entity(item), "dialog": "%d %s left." % (item["quantity"], item["name"])}
            if name == "ExpiringSoon":
                limit = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=int(arguments.get("days") or 7))
                soon = [i for i in items if i.get("expires") and parse_date(i["expires"]) <= limit]
                soon.sort(key=lambda i: parse_date(i["expires"]))
                return {"value": [entity(i) for i in soon], "dialog": "%d expiring soon." % len(soon)}
        if name == "Restock":
            with pantry.lock:
                item = stored(pantry.load(), arguments["item"])
            quantity = arguments.get("quantity")
            if quantity is None:
                quantity = self.ask(request_id, "quantity", "How many %s did you buy?" % item["name"], "Int")
            with pantry.lock:
                items = pantry.load()
                item = stored(items, item["id"])
                item["quantity"] += int(quantity)
                pantry.save(items)
            return {"value": entity(item), "dialog": "Restocked %s: %d now." % (item["name"], item["quantity"])}
        raise IntentFailure("Pantry has no intent %s" % name)

    def handle(self, message):
        method, params, request_id = message.get("method"), message.get("params") or {}, message.get("id")
        trace = os.environ.get("PANTRY_TRACE")
        if trace:
            with self.write_lock, open(trace, "a") as file:
                file.write(json.dumps(message) + "\n")
        try:
            if method == "initialize":
                if PROTOCOL_VERSION not in params.get("protocolVersions", []):
                    self.send({"id": request_id, "error": {"code": -32002, "message": "unsupported protocol version",
                                                           "data": {"supported": [PROTOCOL_VERSION]}}})
                    return
                result = {"protocolVersion": PROTOCOL_VERSION, "metadata": METADATA}
            elif method == "intents/perform":
                result = self.perform(request_id, params)
            elif method == "entities/query":
                result = query(params)
            elif method == "entities/matching":
                text = params["query"].casefold()
                result = {"entities": [entity(i) for i in pantry.load() if text in i["name"].casefold()]}
            elif method == "entities/byIdentifiers":
                wanted = set(params["identifiers"])
                result = {"entities": [entity(i) for i in pantry.load() if i["id"] in wanted]}
            elif method == "entities/suggested":
                result = {"entities": [entity(i) for i in pantry.load()]}
            elif method == "shutdown":
                self.send({"id": request_id, "result": None})
                sys.stdout.flush()
                os._exit(0)
            else:
                self.send({"id": request_id, "error": {"code": -32601, "message": "method not found: %s" % method}})
                return
            self.send({"id": request_id, "result": result})
        except IntentFailure as failure:
            self.send({"id": request_id, "error": {"code": -32000, "message": str(failure)}})
        except CannotAsk as refusal:
            self.send({"id": request_id, "error": {"code": -32000, "message": refusal.args[0].get("message", "cannot ask")}})
        except Exception as error:  # a bug here must not end the extension
            print("pantry: %r" % error, file=sys.stderr, flush=True)
            self.send({"id": request_id, "error": {"code": -32603, "message": "internal error: %s" % error}})

    def serve(self):
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                self.send({"id": None, "error": {"code": -32700, "message": "parse error"}})
                continue
            if "method" not in message:
                with self.answered:
                    self.waiting[message.get("id")] = message
                    self.answered.notify_all()
            elif message["method"] == "$/cancel":
                continue
            elif "id" not in message:
                continue
            else:
                threading.Thread(target=self.handle, args=(message,), daemon=True).start()


if __name__ == "__main__":
    if sys.argv[1:] != ["extension", "serve"]:
        print("usage: pantry.py extension serve\n\nA Shortcuts extension: shortcuts extensions add %s" % sys.argv[0],
              file=sys.stderr)
        sys.exit(64)
    Server().serve()
