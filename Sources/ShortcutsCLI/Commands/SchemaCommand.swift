import ArgumentParser
import WorkflowKit

struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of workflow files, specialised to the installed intents.",
        discussion: "Save it beside your workflows and point editors at it: # yaml-language-server: $schema=workflow.schema.json")

    @Flag(name: .long, help: "Print the general schema instead (Schemas/workflow.schema.json).")
    var general = false

    @Flag(name: .long, help: "Accepted for uniformity: the schema is always JSON.")
    var json = false

    func run() async throws {
        print(general ? try WorkflowSchema.general() : try WorkflowSchema.specialized(for: Installation.shared.catalog))
    }
}
