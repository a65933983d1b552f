// Tests that import ShortcutsSystemTestSupport can start a LocalHTTPServer without naming its module.
@_exported import LocalHTTP
