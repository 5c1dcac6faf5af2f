import QuarryTestSupport
import Testing

/// `make soak`'s count of extra seeds: unset is none, and a value that is not a count is named
/// in the message that stops the run.
@Suite struct SoakSeedsTests {
    @Test func theCountIsReadOrItsValueNamed() {
        #expect(SoakSeeds.count(nil) == .success(0))
        #expect(SoakSeeds.count("200") == .success(200))
        #expect(SoakSeeds.count("1000000") == .success(1_000_000))
        for bad in ["abc", "-1", "1000001", "", "2e3"] {
            guard case .failure(let problem) = SoakSeeds.count(bad) else {
                Issue.record("'\(bad)' was read as a count")
                continue
            }
            #expect(problem.message == "QUARRY_SOAK_SEEDS is '\(bad)', not a count of seeds from 0 to 1000000")
        }
    }
}
