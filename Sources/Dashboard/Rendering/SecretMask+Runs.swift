import WorkflowKit

extension SecretMask {
    /// A run with every stored secret's value masked in what pages show of it.
    func mask(_ run: RunHistory.Run) -> RunHistory.Run {
        guard !isEmpty else { return run }
        var masked = run
        masked.name = mask(run.name)
        masked.inputs = mask(run.inputs)
        masked.output = mask(run.output)
        masked.error = mask(run.error)
        return masked
    }

    /// A recorded step with every stored secret's value masked.
    func mask(_ step: RunHistory.RecordedStep) -> RunHistory.RecordedStep {
        guard !isEmpty else { return step }
        var masked = step
        masked.inputs = mask(step.inputs)
        masked.output = mask(step.output)
        masked.dialog = mask(step.dialog)
        masked.error = mask(step.error)
        masked.details = mask(step.details)
        return masked
    }
}
