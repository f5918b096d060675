import Foundation
import MCPackReader
import SwiftUI

/// The scan once the bundle is known good; before that, what is happening
/// or what is wrong, in words a person installing the kiosk can act on.
// Main actor as a whole, not only `body`: `content` reads the main-actor
// model. The iOS 18 SDK's View is @MainActor, which infers this; the iOS 16
// and 17 SDKs' is not.
@MainActor
struct RootView: View {
    @ObservedObject var model: KioskModel

    var body: some View {
        content
            .background(TouchActivity { model.touched() })
            .overlay(alignment: .topTrailing) { StaffCorner(model: model) }
    }

    @ViewBuilder private var content: some View {
        switch model.phase {
        case .opening:
            ProgressView()
        case let .missing(searched):
            MissingBundleView(searched: searched)
        case let .unreadable(folder, reason):
            MessageView(title: "The bundle cannot be opened", lines: [reason, "Folder: \(folder.path(percentEncoded: false))"])
        case let .verifying(bundle, done, total):
            VerifyingView(title: bundle.title, done: done, total: total)
        case let .damaged(bundle, problems):
            DamagedView(bundle: bundle, problems: problems, model: model)
        case let .ready(bundle):
            KioskScreen(bundle: bundle, icons: model.icons)
                // A new version starts afresh: no menu open, no filter or
                // clause of the old one, which the new one may not have.
                .id(bundle.identity)
        }
    }
}

struct VerifyingView: View {
    let title: String
    let done: Int
    let total: Int

    var body: some View {
        VStack(spacing: 16) {
            Text(title).font(.title)
            // The manifest is read before the first file is counted: until
            // then the total is unknown, and 0 of 1 says "started".
            ProgressView(value: Double(done), total: Double(max(total, 1)))
                .frame(maxWidth: 480)
            Text(total == 0 ? "Reading the manifest" : "Checking file \(done) of \(total)")
                .font(.callout.monospacedDigit())
                .foregroundStyle(.secondary)
        }
        .padding()
    }
}

struct MissingBundleView: View {
    let searched: [URL]

    var body: some View {
        MessageView(title: "No bundle found", lines: lines)
    }

    private var lines: [String] {
        var lines = [
            "This app shows a bundle built by mcpack. Run “make demo” at the repository’s root, which writes dist/magna-carta-1.0.0.zip, then either:",
            "• unzip it into Examples/Kiosk/Bundle/ (so that Bundle/magna-carta-1.0.0/bagit.txt exists) and build and run again, or",
            "• publish it to an update channel and set MCPackChannelURL and MCPackChannelKey (Examples/Kiosk/README.md, “Updates”): the app installs it by itself.",
            "Looked in:",
        ]
        lines += searched.map { $0.path(percentEncoded: false) }
        return lines
    }
}

struct DamagedView: View {
    let bundle: KioskBundle
    let problems: [BundleProblem]
    let model: KioskModel

    // Enough to see the pattern (one file, or a whole folder); the rest
    // are counted.
    private static let shown = 20

    var body: some View {
        VStack(spacing: 20) {
            MessageView(title: "\(bundle.title) \(bundle.version) failed verification", lines: lines)
            HStack(spacing: 16) {
                Button("Verify again") { Task { await model.verify(bundle) } }
                    .buttonStyle(.borderedProminent)
                Button("Show it anyway") { model.showAnyway(bundle) }
                    .buttonStyle(.bordered)
            }
        }
        .padding()
    }

    private var lines: [String] {
        var lines = problems.prefix(Self.shown).map(\.description)
        if problems.count > Self.shown {
            lines.append("and \(problems.count - Self.shown) more")
        }
        lines.append("Replace the bundle with a fresh copy of the archive (check the archive first with “mcpack verify”).")
        return lines
    }
}

struct MessageView: View {
    let title: String
    let lines: [String]

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 12) {
                Text(title).font(.title.weight(.semibold))
                ForEach(lines.indices, id: \.self) { index in
                    // Verbatim: a path is not Markdown. Selectable: paths
                    // and commands are meant to be copied.
                    Text(verbatim: lines[index]).textSelection(.enabled)
                }
            }
            .frame(maxWidth: 720, alignment: .leading)
            .padding(32)
        }
    }
}

/// The staff's rollback: a press held for seconds in the top trailing
/// corner, which nothing on screen shows, then a confirmation naming both
/// versions (UpdatePlan's words). A visitor who finds it by chance must
/// still confirm, and can only bring back the version shown here before.
@MainActor
struct StaffCorner: View {
    @ObservedObject var model: KioskModel
    @State private var offer: UpdatePlan.RollBackOffer?
    @State private var shown = false

    var body: some View {
        // Clear, with a shape so it takes touches: small, so the scan
        // under it loses little.
        Color.clear
            .frame(width: 60, height: 60)
            .contentShape(Rectangle())
            .onLongPressGesture(minimumDuration: 4, maximumDistance: 20) {
                Task {
                    offer = await model.rollBackOffer()
                    shown = true
                }
            }
            .accessibilityHidden(true)
            .alert(offer?.title ?? "", isPresented: $shown, presenting: offer) { offer in
                if let confirm = offer.confirm {
                    Button(confirm, role: .destructive) { Task { await rollBack() } }
                    Button("Cancel", role: .cancel) {}
                } else {
                    Button("OK", role: .cancel) {}
                }
            } message: { offer in
                Text(verbatim: offer.message)
            }
    }

    private func rollBack() async {
        do { try await model.rollBack() } catch {
            offer = UpdatePlan.RollBackOffer(title: "Could not go back", message: String(describing: error))
            shown = true
        }
    }
}
