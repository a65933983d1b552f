// A suite that needs a system component imports this module alone: the light support (temporary
// homes, the manual clock, waits for events, the binary and background programs) comes with it.
@_exported import ShortcutsTestSupport
