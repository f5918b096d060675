import Foundation
import MCPackReader
import os
import SwiftUI
import UIKit

/// The app's one piece of state: which bundle it shows and whether it has
/// been checked, and the updates to it. Finding, opening, verifying and
/// updating are MCPackReader's; when to check and when to switch is
/// UpdatePlan's; this only runs them and keeps the answers.
@MainActor
final class KioskModel: ObservableObject {
    enum Phase {
        case opening
        /// No bag in any of these folders.
        case missing(searched: [URL])
        /// A bag is there but cannot be opened.
        case unreadable(folder: URL, reason: String)
        /// Every file checked against the manifest; `total` is 0 until the
        /// manifest has been read.
        case verifying(KioskBundle, done: Int, total: Int)
        case damaged(KioskBundle, [BundleProblem])
        case ready(KioskBundle)
    }

    @Published private(set) var phase: Phase = .opening
    /// The menu's icons by number, read once: the menu is drawn again on
    /// every tap, and 15 files each time is waste.
    private(set) var icons: [Int: UIImage] = [:]

    private let store: BundleStore
    private let builtIn: URL?
    private let updates: UpdateSettings?
    private let plan: UpdatePlan
    private let defaults: UserDefaults
    private var started = false

    /// A version the updater installed (or a rollback brought back), opened
    /// and waiting for an idle moment to be shown.
    private var pending: KioskBundle?
    private var nextCheck = Date.distantPast
    private var lastTouch = Date()

    private static let log = Logger(subsystem: "org.example.mcpack.Kiosk", category: "updates")

    init(store: BundleStore = BagLocation.store, builtIn: URL? = BagLocation.builtIn,
         updates: UpdateSettings? = KioskModel.settingsFromInfoPlist(), plan: UpdatePlan = UpdatePlan(),
         defaults: UserDefaults = .standard) {
        self.store = store
        self.builtIn = builtIn
        self.updates = updates
        self.plan = plan
        self.defaults = defaults
    }

    /// Finds and opens the bundle, starts the updates, and verifies the
    /// bundle the first time this version is seen. Runs once, however often
    /// the view appears.
    func start() async {
        guard !started else { return }
        started = true
        let store = store, builtIn = builtIn
        // Listing folders and reading the small JSON files is still disk
        // work: off the main thread, so the first frame is not held up.
        let (opened, shipped) = await Task.detached(priority: .userInitiated) { () -> (Opened, URL?) in
            let shipped = builtIn.flatMap { BagLocation.find(in: [$0]) }
            return (Self.open(UpdatePlan.folders(installed: store.current, shipped: shipped)), shipped)
        }.value
        if let updates {
            var bundleName: String?
            if case let .bundle(bundle) = opened { bundleName = bundle.name }
            let updater = BundleUpdater(store: store, options: updates.options(shipped: shipped, bundleName: bundleName))
            // For the app's lifetime: not tied to the view's task, which
            // verification below may hold for minutes.
            Task { await runUpdates(updater) }
        }
        switch opened {
        case .missing:
            phase = .missing(searched: [store.link] + [builtIn].compactMap { $0 })
        case let .unreadable(folder, reason):
            phase = .unreadable(folder: folder, reason: reason)
        case let .bundle(bundle):
            await present(bundle)
        }
    }

    /// A finger came down somewhere on the screen.
    func touched() {
        lastTouch = Date()
    }

    /// What the staff's rollback control (RootView's StaffCorner) offers
    /// now, from the versions the store holds.
    func rollBackOffer() async -> UpdatePlan.RollBackOffer {
        let store = store, screen = screen
        let (current, previous) = await Task.detached(priority: .userInitiated) {
            (store.current.flatMap(Self.version), store.previous.flatMap(Self.version))
        }.value
        return UpdatePlan.rollBackOffer(current: current, previous: previous, screen: screen)
    }

    /// Makes the version installed before the current one current again
    /// (`BundleStore.rollBack()`) and shows it at once: a member of staff
    /// asked, standing at the kiosk. The updater holds the version left
    /// back until a newer one is published. Throws while an update holds
    /// the store, which a moment later will not.
    func rollBack() async throws {
        let store = store
        let bundle = try await Task.detached(priority: .userInitiated) {
            try KioskBundle(folder: try store.rollBack())
        }.value
        // An update installed but not yet shown is the version just left.
        pending = nil
        Self.log.notice("rolled back to \(bundle.name, privacy: .public) \(bundle.version, privacy: .public)")
        await present(bundle)
    }

    private nonisolated static func version(_ folder: URL) -> String? {
        try? KioskBundle(folder: folder).version
    }

    /// The first folder that opens; the first one's problem when none does.
    private nonisolated static func open(_ folders: [URL]) -> Opened {
        var first: Opened?
        for folder in folders {
            do { return .bundle(try KioskBundle(folder: folder)) } catch {
                first = first ?? .unreadable(folder, error.localizedDescription)
            }
        }
        return first ?? .missing
    }

    private func present(_ bundle: KioskBundle) async {
        icons = Self.loadIcons(of: bundle)
        if verifiedVersions.contains(Self.versionKey(bundle)) {
            phase = .ready(bundle)
        } else {
            await verify(bundle)
        }
    }

    // Every 30 seconds rather than one sleep until 03:00: the plan is asked
    // against the wall clock, which a sleep does not follow when the clock
    // or the time zone is set, and the idle switch needs the ticks anyway.
    private func runUpdates(_ updater: BundleUpdater) async {
        BagLocation.excludeFromBackup(store)
        while !Task.isCancelled {
            switch plan.step(now: Date(), nextCheck: nextCheck, switchPending: pending != nil, screen: screen, lastTouch: lastTouch) {
            case .check:
                await check(updater)
            case .switchBundle:
                if let bundle = pending {
                    pending = nil
                    Self.log.notice("showing \(bundle.name, privacy: .public) \(bundle.version, privacy: .public)")
                    await present(bundle)
                }
            case .wait:
                do { try await Task.sleep(for: .seconds(30)) } catch { return }
            }
        }
    }

    private func check(_ updater: BundleUpdater) async {
        // Detached: the updater hashes every file of a new version, which
        // must not run on the main actor.
        let outcome = await Task.detached(priority: .utility) { () -> Result<(UpdateResult, KioskBundle?), any Error> in
            do {
                let result = try await updater.update()
                guard result.outcome == .installed else { return .success((result, nil)) }
                return .success((result, try KioskBundle(folder: URL(fileURLWithPath: result.folder))))
            } catch {
                return .failure(error)
            }
        }.value
        switch outcome {
        case let .success((_, installed?)):
            // The updater checked every byte against the signed list and
            // the bag's manifests: no second verification at the switch.
            verifiedVersions.insert(Self.versionKey(installed))
            pending = installed
            nextCheck = plan.nextCheck(after: Date(), retrySoon: false)
            Self.log.notice("installed \(installed.name, privacy: .public) \(installed.version, privacy: .public), shown when idle")
        case let .success((result, .none)):
            nextCheck = plan.nextCheck(after: Date(), retrySoon: false)
            if result.outcome == .heldBack {
                // The staff's rollback standing: not an error.
                Self.log.notice("holding \(result.version, privacy: .public): the channel's \(result.heldBack ?? "", privacy: .public) was rolled back from")
            }
        case let .failure(error):
            let retrySoon = (error as? UpdateError)?.kind == .couldNotUpdate
            nextCheck = plan.nextCheck(after: Date(), retrySoon: retrySoon)
            Self.log.error("update: \(String(describing: error), privacy: .public)")
        }
    }

    private var screen: UpdatePlan.Screen {
        switch phase {
        case .ready: return .kiosk
        case .opening, .verifying: return .busy
        case .missing, .unreadable, .damaged: return .nothing
        }
    }

    /// The channel set in Info.plist, nil when none is (or when a value is
    /// wrong, which is logged).
    static func settingsFromInfoPlist() -> UpdateSettings? {
        do { return try UpdateSettings(info: Bundle.main.infoDictionary ?? [:]) } catch {
            log.error("updates off: \(String(describing: error), privacy: .public)")
            return nil
        }
    }

    /// Checks every file of `bundle` and shows it only if all are intact.
    func verify(_ bundle: KioskBundle) async {
        phase = .verifying(bundle, done: 0, total: 0)
        // Newest only: the reader reports after every file (tens of
        // thousands for the full scan) and the bar needs only the latest.
        let (steps, reporter) = AsyncStream.makeStream(of: Step.self, bufferingPolicy: .bufferingNewest(1))
        async let found = Self.problems(in: bundle, reportingTo: reporter)
        for await step in steps {
            phase = .verifying(bundle, done: step.done, total: step.total)
        }
        do {
            let problems = try await found
            if problems.isEmpty {
                verifiedVersions.insert(Self.versionKey(bundle))
                phase = .ready(bundle)
            } else {
                phase = .damaged(bundle, problems)
            }
        } catch {
            // Cancelled: the scene went away mid-check. The next launch
            // checks again, since nothing was recorded.
        }
    }

    /// For a developer looking at a damaged bundle; a kiosk in the field
    /// should stay on the problems until the bundle is replaced.
    func showAnyway(_ bundle: KioskBundle) {
        phase = .ready(bundle)
    }

    private enum Opened: Sendable {
        case missing
        case unreadable(URL, String)
        case bundle(KioskBundle)
    }

    private struct Step: Sendable {
        var done: Int
        var total: Int
    }

    // The reader's async verify runs on a thread of its own; this wrapper
    // only ends the progress stream when it returns, whichever way.
    private nonisolated static func problems(
        in bundle: KioskBundle, reportingTo reporter: AsyncStream<Step>.Continuation
    ) async throws -> [BundleProblem] {
        defer { reporter.finish() }
        return try await bundle.verify(progress: { done, total in
            reporter.yield(Step(done: done, total: total))
        })
    }

    private static func loadIcons(of bundle: KioskBundle) -> [Int: UIImage] {
        var icons: [Int: UIImage] = [:]
        for category in bundle.categories {
            icons[category.icon] = UIImage(contentsOfFile: bundle.iconURL(for: category).path(percentEncoded: false))
        }
        return icons
    }

    // A built version never changes (bundle.toml's rule), so name and
    // version say which bytes were checked.
    private static func versionKey(_ bundle: KioskBundle) -> String {
        "\(bundle.name) \(bundle.version)"
    }

    private static let verifiedKey = "verifiedBundles"

    private var verifiedVersions: Set<String> {
        get { Set(defaults.stringArray(forKey: Self.verifiedKey) ?? []) }
        set { defaults.set(newValue.sorted(), forKey: Self.verifiedKey) }
    }
}
