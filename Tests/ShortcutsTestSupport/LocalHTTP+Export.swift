// Tests that import ShortcutsTestSupport can start a LocalHTTPServer without naming its module.
@_exported import LocalHTTP
