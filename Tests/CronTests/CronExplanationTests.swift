import Testing

@testable import Cron

@Suite("English explanations")
struct CronExplanationTests {
    @Test(
        "Times of day",
        arguments: [
            ("0 9 * * *", "At 09:00"),
            ("0 9,17 * * *", "At 09:00 and 17:00"),
            ("15 30 9 * * *", "At 09:30:15"),
            ("0 0 9 * * *", "At 09:00"),
            ("* * * * *", "Every minute"),
            ("*/5 * * * *", "Every 5 minutes"),
            ("0 * * * *", "At minute 0 past every hour"),
            ("5,35 * * * *", "At minutes 5 and 35 past every hour"),
            ("0 */2 * * *", "At minute 0 past every 2nd hour"),
            ("0 3/6 * * *", "At minute 0 past every 6th hour from 3 through 23"),
            ("0 9-17 * * *", "At minute 0 past hours 9 through 17"),
            ("0,15,30,45 8,12,20 * * *", "At minutes 0, 15, 30 and 45 past hours 8, 12 and 20"),
            ("0-10,30 * * * *", "At minutes 0 through 10 and 30 past every hour"),
            ("0-30 * * * *", "Every minute from minute 0 through 30"),
            ("10-40/5 * * * *", "Every 5 minutes from minute 10 through 40"),
            ("10/5 * * * *", "Every 5 minutes starting at minute 10"),
            ("* 9 * * *", "Every minute, between 09:00 and 09:59"),
            ("*/5 */2 * * *", "Every 5 minutes, during every 2nd hour"),
            ("*/5 1,2,3 * * *", "Every 5 minutes, during hours 1, 2 and 3")
        ])
    func timesOfDay(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Seconds",
        arguments: [
            ("* * * * * *", "Every second"),
            ("*/10 * * * * *", "Every 10 seconds"),
            ("30 * * * * *", "At second 30 of every minute"),
            ("10-20 * * * * *", "Every second from second 10 through 20"),
            ("5 */15 * * * *", "At second 5, every 15 minutes")
        ])
    func seconds(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Days of the month, including L, L-n, W and LW",
        arguments: [
            ("30 2 L * *", "At 02:30 on the last day of the month"),
            ("0 0 1,15 * *", "At 00:00 on days 1 and 15 of the month"),
            ("0 0 1-7 * *", "At 00:00 on days 1 through 7 of the month"),
            ("0 0 */2 * *", "At 00:00 on every 2nd day of the month"),
            ("0 0 5/10 * *", "At 00:00 on every 10th day starting on day 5 of the month"),
            ("0 0 1-20/5 * *", "At 00:00 on every 5th day from day 1 through 20 of the month"),
            ("0 0 L-3 * *", "At 00:00, 3 days before the last day of the month"),
            ("0 0 L-1 * *", "At 00:00, 1 day before the last day of the month"),
            ("0 0 L-3,1 * *", "At 00:00 on day 1 and 3 days before the last day of the month"),
            ("0 0 15W * *", "At 00:00 on the weekday nearest day 15 of the month"),
            ("0 0 LW * *", "At 00:00 on the last weekday of the month"),
            ("0 0 1,L * *", "At 00:00 on day 1 and the last day of the month"),
            ("0 0 */1 * *", "At 00:00 on every day of the month")
        ])
    func daysOfMonth(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Days of the week, including # and L",
        arguments: [
            ("0 9 * * 1-5", "At 09:00, Monday through Friday"),
            ("0 0 * * 0", "At 00:00, only on Sunday"),
            ("0 0 * * 7", "At 00:00, only on Sunday"),
            ("0 0 * * 1,3,5", "At 00:00, only on Monday, Wednesday and Friday"),
            ("0 0 * * SAT,SUN", "At 00:00, only on Saturday and Sunday"),
            ("0 0 * * FRI-SUN", "At 00:00, Friday through Sunday"),
            ("0 0 * * */2", "At 00:00, only on Sunday, Tuesday, Thursday and Saturday"),
            ("0 0 * * */1", "At 00:00, every day of the week"),
            ("0 12 ? * FRI#3", "At 12:00 on the third Friday of the month"),
            ("0 0 * * 5L", "At 00:00 on the last Friday of the month"),
            ("0 0 * * FRIL", "At 00:00 on the last Friday of the month"),
            ("0 0 * * 1#1,5L", "At 00:00 on the first Monday of the month and the last Friday of the month"),
            ("0 0 * * MON,FRI#2", "At 00:00 on Monday and the second Friday of the month")
        ])
    func daysOfWeek(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Both day fields restricted read as alternatives; ? reads as nothing",
        arguments: [
            ("0 0 1,15 * MON", "At 00:00 on days 1 and 15 of the month or on Monday"),
            ("0 0 13 * 5", "At 00:00 on day 13 of the month or on Friday"),
            ("0 0 */2 * MON", "At 00:00 on every 2nd day of the month, only on Monday"),
            ("0 0 L * 5L", "At 00:00 on the last day of the month or on the last Friday of the month"),
            ("0 0 ? * ?", "At 00:00")
        ])
    func bothDayFields(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Months",
        arguments: [
            ("0 0 * 3 *", "At 00:00, only in March"),
            ("0 0 * 3-6 *", "At 00:00, March through June"),
            ("0 0 * 6,7 *", "At 00:00, only in June and July"),
            ("0 0 * */3 *", "At 00:00, only in January, April, July and October"),
            ("0 0 * NOV,DEC,JAN *", "At 00:00, November through January"),
            ("*/15 9-17 * * MON-FRI", "Every 15 minutes, between 09:00 and 17:59, Monday through Friday")
        ])
    func months(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }

    @Test(
        "Macros",
        arguments: [
            ("@yearly", "At 00:00 on day 1 of the month, only in January"),
            ("@annually", "At 00:00 on day 1 of the month, only in January"),
            ("@monthly", "At 00:00 on day 1 of the month"),
            ("@weekly", "At 00:00, only on Sunday"),
            ("@daily", "At 00:00"),
            ("@midnight", "At 00:00"),
            ("@hourly", "At minute 0 past every hour")
        ])
    func macros(expression: String, explanation: String) throws {
        #expect(try CronExpression(expression).explanation == explanation)
    }
}
