// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are source files
/**
 * The bundled demo project and its recorded query sequences, generated from
 * `fixtures/` by `npm run fixtures:embed`. Do not edit: edit the fixtures.
 */
import type { RecordedSequence } from './replay.js';

/** The files of the sample project (TypeScript and Python). */
export const SAMPLE_FILES: readonly { readonly path: string; readonly content: string }[] = [
  {
    path: 'src/cart.ts',
    content:
      "/**\n * A shopping cart: lines, quantities, discount codes and totals.\n */\nimport type { Book, Catalog } from './catalog.js';\nimport { type Money, money, scaleMoney, sumMoney } from './money.js';\n\nexport interface CartLine {\n  readonly book: Book;\n  quantity: number;\n}\n\nexport interface DiscountCode {\n  readonly code: string;\n  /** Fraction off the subtotal, 0..1. */\n  readonly percentOff: number;\n  /** Only lines whose book carries this tag are discounted, when set. */\n  readonly onlyTag?: string;\n  readonly expires: Date;\n}\n\nexport interface CartTotals {\n  readonly subtotal: Money;\n  readonly discount: Money;\n  readonly total: Money;\n}\n\nexport class Cart {\n  readonly lines: CartLine[] = [];\n  private code: DiscountCode | undefined;\n\n  constructor(private readonly catalog: Catalog) {}\n\n  addBook(sku: string, quantity = 1): CartLine {\n    const book = this.catalog.find(sku);\n    if (!book) throw new Error(`unknown SKU ${sku}`);\n    this.catalog.reserve(sku, quantity);\n    const existing = this.lines.find((line) => line.book.sku === sku);\n    if (existing) {\n      existing.quantity += quantity;\n      return existing;\n    }\n    const line = { book, quantity };\n    this.lines.push(line);\n    return line;\n  }\n\n  removeBook(sku: string): void {\n    const index = this.lines.findIndex((line) => line.book.sku === sku);\n    if (index < 0) return;\n    const [line] = this.lines.splice(index, 1);\n    if (line) this.catalog.release(sku, line.quantity);\n  }\n\n  applyCode(code: DiscountCode, now = new Date()): boolean {\n    if (code.expires.getTime() <= now.getTime()) return false;\n    if (code.percentOff <= 0 || code.percentOff > 1) return false;\n    this.code = code;\n    return true;\n  }\n\n  totals(): CartTotals {\n    const lineTotals = this.lines.map((line) => scaleMoney(line.book.price, line.quantity));\n    const subtotal = sumMoney(lineTotals);\n    const discount = this.code ? discountFor(this.lines, this.code) : money(0);\n    return { subtotal, discount, total: sumMoney([subtotal, scaleMoney(discount, -1)]) };\n  }\n\n  clear(): void {\n    for (const line of this.lines) this.catalog.release(line.book.sku, line.quantity);\n    this.lines.length = 0;\n    this.code = undefined;\n  }\n}\n\nexport function discountFor(lines: readonly CartLine[], code: DiscountCode): Money {\n  const eligible = lines.filter((line) => !code.onlyTag || line.book.tags.includes(code.onlyTag));\n  const base = sumMoney(eligible.map((line) => scaleMoney(line.book.price, line.quantity)));\n  return scaleMoney(base, code.percentOff);\n}\n",
  },
  {
    path: 'src/catalog.ts',
    content:
      "/**\n * The book catalog: lookups by SKU, stock levels and reservations.\n */\nimport { type Money, money } from './money.js';\n\nexport interface Book {\n  readonly sku: string;\n  readonly title: string;\n  readonly author: string;\n  readonly price: Money;\n  readonly tags: readonly string[];\n}\n\nexport interface StockLevel {\n  readonly sku: string;\n  onHand: number;\n  reserved: number;\n}\n\nexport class OutOfStockError extends Error {\n  constructor(readonly sku: string, readonly wanted: number, readonly available: number) {\n    super(`${sku}: wanted ${wanted}, only ${available} available`);\n    this.name = 'OutOfStockError';\n  }\n}\n\nexport class Catalog {\n  private readonly books = new Map<string, Book>();\n  private readonly stock = new Map<string, StockLevel>();\n\n  add(book: Book, onHand = 0): void {\n    this.books.set(book.sku, book);\n    this.stock.set(book.sku, { sku: book.sku, onHand, reserved: 0 });\n  }\n\n  find(sku: string): Book | undefined {\n    return this.books.get(sku);\n  }\n\n  search(term: string): Book[] {\n    const needle = term.trim().toLowerCase();\n    if (needle === '') return [];\n    const hits: Book[] = [];\n    for (const book of this.books.values()) {\n      const haystack = `${book.title} ${book.author} ${book.tags.join(' ')}`.toLowerCase();\n      if (haystack.includes(needle)) hits.push(book);\n    }\n    return hits.sort((a, b) => a.title.localeCompare(b.title));\n  }\n\n  available(sku: string): number {\n    const level = this.stock.get(sku);\n    return level ? level.onHand - level.reserved : 0;\n  }\n\n  reserve(sku: string, quantity: number): void {\n    const level = this.stock.get(sku);\n    const free = level ? level.onHand - level.reserved : 0;\n    if (!level || free < quantity) throw new OutOfStockError(sku, quantity, free);\n    level.reserved += quantity;\n  }\n\n  release(sku: string, quantity: number): void {\n    const level = this.stock.get(sku);\n    if (!level) return;\n    level.reserved = Math.max(0, level.reserved - quantity);\n  }\n\n  commit(sku: string, quantity: number): void {\n    const level = this.stock.get(sku);\n    if (!level) return;\n    level.reserved = Math.max(0, level.reserved - quantity);\n    level.onHand = Math.max(0, level.onHand - quantity);\n  }\n}\n\nexport function sampleCatalog(): Catalog {\n  const catalog = new Catalog();\n  catalog.add(\n    { sku: 'BK-001', title: 'The Quiet Harbour', author: 'M. Okafor', price: money(1899), tags: ['fiction'] },\n    12,\n  );\n  catalog.add(\n    { sku: 'BK-002', title: 'Field Notes on Moss', author: 'A. Lindqvist', price: money(2450), tags: ['nature'] },\n    3,\n  );\n  catalog.add(\n    { sku: 'BK-003', title: 'Small Compilers', author: 'R. Tanaka', price: money(4200), tags: ['computing'] },\n    0,\n  );\n  return catalog;\n}\n",
  },
  {
    path: 'src/checkout.ts',
    content:
      "/**\n * Checkout: turns a cart into an order, charges the payment provider and\n * commits the stock. Nothing is committed unless the charge succeeds.\n */\nimport type { Cart, CartTotals } from './cart.js';\nimport type { Catalog } from './catalog.js';\nimport { type Money, formatMoney, scaleMoney } from './money.js';\n\nexport interface PaymentProvider {\n  charge(amount: Money, reference: string): Promise<ChargeResult>;\n  refund(chargeId: string, amount: Money): Promise<void>;\n}\n\nexport type ChargeResult =\n  | { readonly ok: true; readonly chargeId: string }\n  | { readonly ok: false; readonly reason: 'declined' | 'network' | 'fraud' };\n\nexport interface Order {\n  readonly id: string;\n  readonly lines: readonly { sku: string; quantity: number; unit: Money }[];\n  readonly totals: CartTotals;\n  readonly tax: Money;\n  readonly chargeId: string;\n  readonly placedAt: Date;\n}\n\nexport class CheckoutError extends Error {\n  constructor(readonly reason: string) {\n    super(`checkout failed: ${reason}`);\n    this.name = 'CheckoutError';\n  }\n}\n\n/** VAT on books, as a fraction of the discounted total. */\nexport const BOOK_TAX_RATE = 0.06;\n\nlet orderCounter = 0;\n\nexport function nextOrderId(now: Date): string {\n  orderCounter += 1;\n  const day = now.toISOString().slice(0, 10).replaceAll('-', '');\n  return `ORD-${day}-${String(orderCounter).padStart(4, '0')}`;\n}\n\nexport async function checkout(\n  cart: Cart,\n  catalog: Catalog,\n  payments: PaymentProvider,\n  now = new Date(),\n): Promise<Order> {\n  if (cart.lines.length === 0) throw new CheckoutError('cart is empty');\n  const totals = cart.totals();\n  const tax = scaleMoney(totals.total, BOOK_TAX_RATE);\n  const due: Money = { cents: totals.total.cents + tax.cents, currency: totals.total.currency };\n  const id = nextOrderId(now);\n\n  const result = await chargeWithRetry(payments, due, id);\n  if (!result.ok) throw new CheckoutError(`payment ${result.reason} for ${formatMoney(due)}`);\n\n  const lines = cart.lines.map((line) => ({\n    sku: line.book.sku,\n    quantity: line.quantity,\n    unit: line.book.price,\n  }));\n  for (const line of lines) catalog.commit(line.sku, line.quantity);\n  cart.lines.length = 0;\n  return { id, lines, totals, tax, chargeId: result.chargeId, placedAt: now };\n}\n\nexport async function chargeWithRetry(\n  payments: PaymentProvider,\n  amount: Money,\n  reference: string,\n  attempts = 3,\n): Promise<ChargeResult> {\n  let last: ChargeResult = { ok: false, reason: 'network' };\n  for (let attempt = 1; attempt <= attempts; attempt++) {\n    last = await payments.charge(amount, reference);\n    // Only a network failure is worth another try; a decline will not change.\n    if (last.ok || last.reason !== 'network') return last;\n  }\n  return last;\n}\n\nexport async function refundOrder(order: Order, payments: PaymentProvider): Promise<void> {\n  const amount: Money = {\n    cents: order.totals.total.cents + order.tax.cents,\n    currency: order.totals.total.currency,\n  };\n  await payments.refund(order.chargeId, amount);\n}\n",
  },
  {
    path: 'src/money.ts',
    content:
      "/**\n * Money in integer minor units (cents), so sums never drift.\n */\n\nexport type Currency = 'EUR' | 'USD' | 'GBP';\n\nexport interface Money {\n  readonly cents: number;\n  readonly currency: Currency;\n}\n\nexport class CurrencyMismatchError extends Error {\n  constructor(a: Currency, b: Currency) {\n    super(`cannot combine ${a} with ${b}`);\n    this.name = 'CurrencyMismatchError';\n  }\n}\n\nexport function money(cents: number, currency: Currency = 'EUR'): Money {\n  if (!Number.isSafeInteger(cents)) {\n    throw new RangeError(`cents must be a safe integer, got ${cents}`);\n  }\n  return { cents, currency };\n}\n\nexport function addMoney(a: Money, b: Money): Money {\n  if (a.currency !== b.currency) throw new CurrencyMismatchError(a.currency, b.currency);\n  return { cents: a.cents + b.cents, currency: a.currency };\n}\n\nexport function scaleMoney(m: Money, factor: number): Money {\n  // Round half away from zero: a 2.5 cent tax line becomes 3, a -2.5 refund -3.\n  const raw = m.cents * factor;\n  const rounded = Math.sign(raw) * Math.round(Math.abs(raw));\n  return { cents: rounded, currency: m.currency };\n}\n\nexport function sumMoney(items: readonly Money[], currency: Currency = 'EUR'): Money {\n  let total = money(0, currency);\n  for (const item of items) total = addMoney(total, item);\n  return total;\n}\n\nexport function formatMoney(m: Money): string {\n  const sign = m.cents < 0 ? '-' : '';\n  const abs = Math.abs(m.cents);\n  const whole = Math.floor(abs / 100);\n  const frac = String(abs % 100).padStart(2, '0');\n  const symbol = m.currency === 'EUR' ? '€' : m.currency === 'USD' ? '$' : '£';\n  return `${sign}${symbol}${whole}.${frac}`;\n}\n",
  },
  {
    path: 'tools/restock.py',
    content:
      '"""Restock planner: reads nightly stock exports and proposes purchase orders.\n\nRun as `python restock.py stock.csv --horizon 14`.\n"""\nfrom __future__ import annotations\n\nimport argparse\nimport csv\nimport math\nfrom dataclasses import dataclass\nfrom pathlib import Path\n\n\n@dataclass(frozen=True)\nclass StockRow:\n    sku: str\n    on_hand: int\n    reserved: int\n    sold_last_30: int\n    lead_time_days: int\n\n\n@dataclass(frozen=True)\nclass PurchaseLine:\n    sku: str\n    quantity: int\n    reason: str\n\n\ndef read_stock(path: Path) -> list[StockRow]:\n    rows: list[StockRow] = []\n    with path.open(newline="", encoding="utf-8") as handle:\n        for record in csv.DictReader(handle):\n            rows.append(\n                StockRow(\n                    sku=record["sku"].strip(),\n                    on_hand=int(record["on_hand"]),\n                    reserved=int(record.get("reserved") or 0),\n                    sold_last_30=int(record["sold_last_30"]),\n                    lead_time_days=int(record.get("lead_time_days") or 7),\n                )\n            )\n    return rows\n\n\ndef daily_demand(row: StockRow) -> float:\n    return row.sold_last_30 / 30.0\n\n\ndef reorder_point(row: StockRow, safety_days: int = 5) -> int:\n    # Cover the supplier\'s lead time plus a safety margin at the current pace.\n    return math.ceil(daily_demand(row) * (row.lead_time_days + safety_days))\n\n\ndef plan_restock(rows: list[StockRow], horizon_days: int) -> list[PurchaseLine]:\n    lines: list[PurchaseLine] = []\n    for row in rows:\n        free = row.on_hand - row.reserved\n        point = reorder_point(row)\n        if free > point:\n            continue\n        target = math.ceil(daily_demand(row) * horizon_days) + point\n        quantity = max(target - free, 1)\n        reason = "out of stock" if free <= 0 else f"below reorder point {point}"\n        lines.append(PurchaseLine(sku=row.sku, quantity=quantity, reason=reason))\n    return sorted(lines, key=lambda line: (-line.quantity, line.sku))\n\n\ndef main(argv: list[str] | None = None) -> int:\n    parser = argparse.ArgumentParser(description=__doc__)\n    parser.add_argument("stock", type=Path)\n    parser.add_argument("--horizon", type=int, default=14)\n    args = parser.parse_args(argv)\n    for line in plan_restock(read_stock(args.stock), args.horizon):\n        print(f"{line.sku}\\t{line.quantity}\\t{line.reason}")\n    return 0\n\n\nif __name__ == "__main__":\n    raise SystemExit(main())\n',
  },
  {
    path: 'tools/sales_report.py',
    content:
      '"""Monthly sales report from the order log (one JSON order per line)."""\nfrom __future__ import annotations\n\nimport json\nfrom collections import Counter, defaultdict\nfrom dataclasses import dataclass, field\nfrom datetime import datetime\nfrom pathlib import Path\nfrom typing import Iterable, Iterator\n\nTAX_RATE = 0.06\n\n\n@dataclass\nclass MonthSummary:\n    month: str\n    orders: int = 0\n    revenue_cents: int = 0\n    tax_cents: int = 0\n    units: Counter[str] = field(default_factory=Counter)\n\n    def top_sellers(self, count: int = 3) -> list[tuple[str, int]]:\n        return self.units.most_common(count)\n\n    def average_order_cents(self) -> int:\n        return self.revenue_cents // self.orders if self.orders else 0\n\n\ndef read_orders(path: Path) -> Iterator[dict]:\n    with path.open(encoding="utf-8") as handle:\n        for number, raw in enumerate(handle, start=1):\n            raw = raw.strip()\n            if not raw:\n                continue\n            try:\n                yield json.loads(raw)\n            except json.JSONDecodeError as error:\n                raise ValueError(f"{path}:{number}: not a JSON order ({error.msg})") from None\n\n\ndef month_of(order: dict) -> str:\n    placed = datetime.fromisoformat(order["placedAt"].replace("Z", "+00:00"))\n    return placed.strftime("%Y-%m")\n\n\ndef summarize(orders: Iterable[dict]) -> dict[str, MonthSummary]:\n    months: dict[str, MonthSummary] = defaultdict(lambda: MonthSummary(month=""))\n    for order in orders:\n        key = month_of(order)\n        summary = months[key]\n        summary.month = key\n        summary.orders += 1\n        summary.revenue_cents += order["totals"]["total"]["cents"]\n        summary.tax_cents += order["tax"]["cents"]\n        for line in order["lines"]:\n            summary.units[line["sku"]] += line["quantity"]\n    return dict(sorted(months.items()))\n\n\ndef render(summaries: dict[str, MonthSummary]) -> str:\n    out = ["month    orders  revenue   avg/order  top seller"]\n    for summary in summaries.values():\n        top = summary.top_sellers(1)\n        best = f"{top[0][0]} x{top[0][1]}" if top else "-"\n        out.append(\n            f"{summary.month}  {summary.orders:>6}  {summary.revenue_cents / 100:>8.2f}"\n            f"  {summary.average_order_cents() / 100:>9.2f}  {best}"\n        )\n    return "\\n".join(out)\n\n\nif __name__ == "__main__":\n    import sys\n\n    print(render(summarize(read_orders(Path(sys.argv[1])))))\n',
  },
];

/** The recorded query sequences over it. */
export const SAMPLE_SEQUENCES: readonly RecordedSequence[] = [
  {
    name: 'checkout',
    description:
      'An agent learns how checkout charges a cart, then drills into discounts, then into stock.',
    budget: {
      maxChars: 3600,
      maxFiles: 4,
    },
    calls: [
      {
        query: 'how does checkout charge the customer',
        files: [
          {
            path: 'src/checkout.ts',
            intended: [
              {
                start: 9,
                end: 25,
              },
              {
                start: 45,
                end: 83,
              },
            ],
          },
          {
            path: 'src/cart.ts',
            intended: [
              {
                start: 21,
                end: 73,
              },
            ],
          },
          {
            path: 'src/money.ts',
            intended: [
              {
                start: 7,
                end: 10,
              },
              {
                start: 31,
                end: 51,
              },
            ],
          },
        ],
      },
      {
        query: 'where is the discount applied to the cart total',
        files: [
          {
            path: 'src/cart.ts',
            intended: [
              {
                start: 12,
                end: 79,
              },
            ],
          },
          {
            path: 'src/checkout.ts',
            intended: [
              {
                start: 45,
                end: 68,
              },
            ],
          },
          {
            path: 'src/money.ts',
            intended: [
              {
                start: 19,
                end: 42,
              },
            ],
          },
        ],
      },
      {
        query: 'what happens to stock when an order is placed or refunded',
        files: [
          {
            path: 'src/checkout.ts',
            intended: [
              {
                start: 45,
                end: 68,
              },
              {
                start: 85,
                end: 91,
              },
            ],
          },
          {
            path: 'src/catalog.ts',
            intended: [
              {
                start: 14,
                end: 75,
              },
            ],
          },
          {
            path: 'src/cart.ts',
            intended: [
              {
                start: 27,
                end: 73,
              },
            ],
          },
          {
            path: 'tools/restock.py',
            intended: [
              {
                start: 14,
                end: 21,
              },
              {
                start: 55,
                end: 66,
              },
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'restock',
    description:
      'From the restock planner (Python) to the stock model (TypeScript) and the sales report.',
    budget: {
      maxChars: 3000,
      maxFiles: 3,
    },
    calls: [
      {
        query: 'how is the restock quantity computed',
        files: [
          {
            path: 'tools/restock.py',
            intended: [
              {
                start: 14,
                end: 21,
              },
              {
                start: 46,
                end: 66,
              },
            ],
          },
          {
            path: 'src/catalog.ts',
            intended: [
              {
                start: 14,
                end: 18,
              },
              {
                start: 27,
                end: 75,
              },
            ],
          },
        ],
      },
      {
        query: 'where do the stock numbers come from',
        files: [
          {
            path: 'tools/restock.py',
            intended: [
              {
                start: 14,
                end: 43,
              },
              {
                start: 55,
                end: 66,
              },
            ],
          },
          {
            path: 'src/catalog.ts',
            intended: [
              {
                start: 27,
                end: 92,
              },
            ],
          },
          {
            path: 'tools/sales_report.py',
            intended: [
              {
                start: 29,
                end: 38,
              },
            ],
          },
        ],
      },
      {
        query: 'monthly sales report and restock entry point',
        files: [
          {
            path: 'tools/sales_report.py',
            intended: [
              {
                start: 14,
                end: 69,
              },
            ],
          },
          {
            path: 'tools/restock.py',
            intended: [
              {
                start: 30,
                end: 43,
              },
              {
                start: 69,
                end: 76,
              },
            ],
          },
          {
            path: 'src/checkout.ts',
            intended: [
              {
                start: 18,
                end: 25,
              },
            ],
          },
        ],
      },
    ],
  },
];
