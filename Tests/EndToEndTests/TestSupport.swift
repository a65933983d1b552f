// Every end-to-end test runs the binary through the shared test support.
@_exported import ShortcutsTestSupport
