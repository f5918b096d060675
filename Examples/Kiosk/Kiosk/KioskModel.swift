import Foundation
import MCPackReader
import SwiftUI
import UIKit

/// The app's one piece of state: which bundle it shows and whether it has
/// been checked. Finding, opening and verifying are MCPackReader's; this
/// only decides when, and keeps the answer.
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

    private let places: [URL]
    private let defaults: UserDefaults
    private var started = false

    init(places: [URL] = BagLocation.standard, defaults: UserDefaults = .standard) {
        self.places = places
        self.defaults = defaults
    }

    /// Finds and opens the bundle, and verifies it the first time this
    /// version is seen. Runs once, however often the view appears.
    func start() async {
        guard !started else { return }
        started = true
        let places = places
        // Listing folders and reading the small JSON files is still disk
        // work: off the main thread, so the first frame is not held up.
        let opened = await Task.detached(priority: .userInitiated) { () -> Opened in
            guard let folder = BagLocation.find(in: places) else { return .missing }
            do { return .bundle(try KioskBundle(folder: folder)) } catch {
                return .unreadable(folder, error.localizedDescription)
            }
        }.value
        switch opened {
        case .missing:
            phase = .missing(searched: places)
        case let .unreadable(folder, reason):
            phase = .unreadable(folder: folder, reason: reason)
        case let .bundle(bundle):
            icons = Self.loadIcons(of: bundle)
            if verifiedVersions.contains(Self.versionKey(bundle)) {
                phase = .ready(bundle)
            } else {
                await verify(bundle)
            }
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
