import IntentKit

/// The order shown before it is confirmed.
struct OrderPreview: SnippetView {
    var order: OrderEntity
    var book: BookEntity

    var body: some SnippetView {
        Box("Order") {
            Text(book.title).bold()
            LabeledContent("Author", value: book.author)
            LabeledContent("Copies", value: order.count)
        }
    }
}

/// The order after it was placed.
struct OrderConfirmation: SnippetView {
    var order: OrderEntity

    var body: some SnippetView {
        Box("Ordered") {
            Text("\(order.count) × \(order.bookTitle)")
        }
    }
}
