// Not part of the README's example: it keeps the promise that a file importing Foundation and APNs
// can name Foundation's `Notification` without its module (Herald's is `APNsNotification`). If
// the name collided again, this package would stop compiling.
import APNs
import Foundation

let exampleNotificationName = Notification.Name("com.example.shop.shipped")
