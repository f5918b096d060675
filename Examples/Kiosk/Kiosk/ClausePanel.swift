import MCPackReader
import SwiftUI

/// The detail panel that slides up over the scan: the clause's title,
/// its translation and its context, the text scrolling inside a panel of
/// fixed height.
// Main actor as a whole, not only `body`: `header` hands the main-actor
// `close` to the button and calls it from the drag. The iOS 18 SDK's View
// is @MainActor, which infers this; the iOS 16 and 17 SDKs' is not.
@MainActor
struct ClausePanel: View {
    let clause: Clause
    let close: @MainActor () -> Void

    // The original app settled on 400 points after trying 300 (too much
    // scrolling for the preface) and 500 (too tall for short clauses).
    private static let height: CGFloat = 400

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            header
            ScrollView {
                VStack(alignment: .leading, spacing: 16) {
                    section("Translation", clause.translation)
                    section("Context", clause.context)
                }
                .frame(maxWidth: .infinity, alignment: .leading)
            }
        }
        .padding(24)
        .frame(maxWidth: 900)
        .frame(height: Self.height)
        .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 24, style: .continuous))
        .padding()
    }

    private var header: some View {
        VStack(alignment: .leading, spacing: 8) {
            Capsule()
                .fill(.secondary)
                .frame(width: 44, height: 5)
                .frame(maxWidth: .infinity)
            HStack(spacing: 12) {
                Circle()
                    .fill(colour)
                    .frame(width: 14, height: 14)
                Text(clause.title)
                    .font(.title2.weight(.semibold))
                Spacer(minLength: 0)
                Button(action: close) {
                    Image(systemName: "xmark.circle.fill")
                        .font(.title2)
                        .foregroundStyle(.secondary)
                }
                .accessibilityLabel("Close")
            }
            if !clause.categories.isEmpty {
                Text(clause.categories.joined(separator: " · "))
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
            }
        }
        // Swiping down closes the panel, as in the original app. Only the
        // header takes the drag: the text below scrolls.
        .contentShape(Rectangle())
        .gesture(DragGesture(minimumDistance: 20).onEnded { drag in
            if drag.translation.height > 60 { close() }
        })
    }

    private func section(_ heading: String, _ text: String) -> some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(heading)
                .font(.headline)
            Text(text)
                .font(.body)
        }
    }

    // The overlay's own colour, opaque: on the panel it is a swatch, not a
    // veil over the scan.
    private var colour: Color {
        let rgba = clause.rgba
        return Color(red: Double(rgba >> 24 & 0xFF) / 255, green: Double(rgba >> 16 & 0xFF) / 255, blue: Double(rgba >> 8 & 0xFF) / 255)
    }
}
