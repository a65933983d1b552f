import Foundation
import IntentKit
import Testing

struct ParameterSummaryTests {
    @Test func whenChoosesBetweenSummariesByValue() {
        let intent = Everything()
        intent.text = "pen"
        intent.number = 3
        let rendered = ParameterSummaryRenderer.render(intent)
        #expect(rendered.text == "Use 3 of pen")
        #expect(rendered.template == "Use ${number} of ${text}")
        #expect(rendered.parameters == ["number", "text"])
    }

    @Test func switchChoosesTheMatchingCaseOrTheDefault() {
        let intent = Everything()
        intent.text = "pen"
        intent.size = .large
        #expect(ParameterSummaryRenderer.render(intent).text == "Use a large pen")
        intent.size = .small
        let fallback = ParameterSummaryRenderer.render(intent)
        #expect(fallback.text == "Use pen")
        #expect(fallback.moreParameters == ["size", "color"])
    }

    @Test func missingValuesShowTheParameterTitle() {
        #expect(ParameterSummaryRenderer.render(Everything.self).text == "Use [Text]")
    }

    @Test func intentsWithoutASummaryShowTheirTitleAndEveryParameter() {
        let rendered = ParameterSummaryRenderer.render(AskTwice.self)
        #expect(rendered.text == "Ask")
        #expect(rendered.moreParameters == ["name"])
    }
}
