import Foundation
import MCPackReader
import Testing

/// The kiosk's update decisions as the app's own file states them: when to
/// check and switch, and what the staff's rollback control offers.
struct UpdatePlanTests {
    @Test func theRollBackControlOffersThePreviousVersionOnlyWhenThereIsOne() {
        let offer = UpdatePlan.rollBackOffer(current: "1.1.0", previous: "1.0.0", screen: .kiosk)
        #expect(offer.target == "1.0.0" && offer.confirm == "Show 1.0.0")
        #expect(offer.title == "Show 1.0.0 instead of 1.1.0?")
        #expect(offer.message.contains("will not install 1.1.0 again"))
        // A damaged or missing bundle on screen is when staff most need it.
        #expect(UpdatePlan.rollBackOffer(current: "1.1.0", previous: "1.0.0", screen: .nothing).target == "1.0.0")

        let shipped = UpdatePlan.rollBackOffer(current: nil, previous: nil, screen: .kiosk)
        #expect(shipped.target == nil && shipped.confirm == nil && shipped.message.contains("built into the app"))
        let first = UpdatePlan.rollBackOffer(current: "1.0.0", previous: nil, screen: .kiosk)
        #expect(first.target == nil && first.confirm == nil && first.message.contains("1.0.0 is installed"))
        // Opening or verifying: the switch would race it.
        let busy = UpdatePlan.rollBackOffer(current: "1.1.0", previous: "1.0.0", screen: .busy)
        #expect(busy.target == nil && busy.confirm == nil)
    }

    @Test func aSwitchWaitsForAnIdleKioskAndNoCheckRunsMeanwhile() {
        let plan = UpdatePlan()
        let now = Date()
        #expect(plan.step(now: now, nextCheck: .distantPast, switchPending: true, screen: .kiosk, lastTouch: now) == .wait)
        #expect(plan.step(now: now, nextCheck: .distantPast, switchPending: true, screen: .kiosk,
                          lastTouch: now.addingTimeInterval(-plan.idleBeforeSwitch)) == .switchBundle)
        #expect(plan.step(now: now, nextCheck: .distantPast, switchPending: true, screen: .nothing, lastTouch: now) == .switchBundle)
        #expect(plan.step(now: now, nextCheck: .distantPast, switchPending: false, screen: .kiosk, lastTouch: now) == .check)
        #expect(plan.step(now: now, nextCheck: .distantPast, switchPending: false, screen: .busy, lastTouch: now) == .wait)
        #expect(plan.step(now: now, nextCheck: now.addingTimeInterval(60), switchPending: false, screen: .kiosk, lastTouch: now) == .wait)
    }

    @Test func aCheckThatCouldNotReachTheChannelIsTriedAgainSooner() throws {
        var plan = UpdatePlan()
        plan.calendar = Calendar(identifier: .gregorian)
        plan.calendar.timeZone = try #require(TimeZone(identifier: "Europe/London"))
        let evening = try #require(plan.calendar.date(from: DateComponents(year: 2030, month: 6, day: 1, hour: 20)))
        let night = try #require(plan.calendar.date(from: DateComponents(year: 2030, month: 6, day: 2, hour: plan.checkHour)))
        #expect(plan.nextCheck(after: evening, retrySoon: false) == night)
        #expect(plan.nextCheck(after: evening, retrySoon: true) == evening.addingTimeInterval(plan.retryAfter))
    }
}
