import MCPackReader
import SwiftUI
import UIKit

/// The side menu: every entry of the bundle's categories.json in icon
/// order, each with its icon from the bundle, the "all" and "none"
/// filters among them. Which clauses an entry shows is the reader's
/// (`KioskBundle.clauses(showing:)`), not the menu's.
struct CategoryMenu: View {
    let categories: [ClauseCategory]
    let icons: [Int: UIImage]
    let selected: ClauseCategory?
    let choose: @MainActor (ClauseCategory) -> Void

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 4) {
                ForEach(categories, id: \.self) { category in
                    Button { choose(category) } label: { row(category) }
                        .buttonStyle(.plain)
                }
            }
            .padding(12)
        }
        .frame(width: 320)
        .frame(maxHeight: .infinity)
        .background(.regularMaterial)
    }

    private func row(_ category: ClauseCategory) -> some View {
        let isSelected = isShowing(category)
        return HStack(spacing: 14) {
            icon(category)
                .frame(width: 44, height: 44)
            Text(category.name)
                .font(.title3)
            Spacer(minLength: 0)
            if isSelected {
                Image(systemName: "checkmark")
                    .foregroundStyle(.tint)
            }
        }
        .padding(.horizontal, 10)
        .padding(.vertical, 6)
        // The whole row takes the tap, not only the icon and the words.
        .contentShape(Rectangle())
        .background(isSelected ? Color.accentColor.opacity(0.15) : Color.clear, in: RoundedRectangle(cornerRadius: 10, style: .continuous))
        .accessibilityAddTraits(isSelected ? .isSelected : [])
    }

    @ViewBuilder private func icon(_ category: ClauseCategory) -> some View {
        if let image = icons[category.icon] {
            Image(uiImage: image)
                .resizable()
                .scaledToFit()
                .accessibilityHidden(true)
        } else {
            // A bundle whose icon is missing still has a usable menu; verify
            // has already said which file is gone.
            Image(systemName: "square.dashed")
                .font(.title2)
                .foregroundStyle(.secondary)
                .accessibilityHidden(true)
        }
    }

    // Before any choice the scan shows every clause, which is what the
    // "all" entry does.
    private func isShowing(_ category: ClauseCategory) -> Bool {
        selected.map { $0 == category } ?? (category.filter == "all")
    }
}
