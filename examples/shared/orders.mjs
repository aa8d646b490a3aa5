// The shop's back office, simulated for both support-agent examples: six
// orders and a refund desk that refuses orders delivered more than 30 days ago.
const DAY = 24 * 60 * 60 * 1000;
const ORDERS = {
  'ORD-1001': { status: 'shipped', carrier: 'DHL', totalEur: 129.0, deliveredDaysAgo: null },
  'ORD-2002': { status: 'delivered', carrier: 'UPS', totalEur: 49.9, deliveredDaysAgo: 3 },
  'ORD-3003': { status: 'delivered', carrier: 'UPS', totalEur: 89.0, deliveredDaysAgo: 45 },
  'ORD-4004': { status: 'processing', carrier: null, totalEur: 15.5, deliveredDaysAgo: null },
  'ORD-5005': { status: 'delivered', carrier: 'DHL', totalEur: 240.0, deliveredDaysAgo: 10 },
  'ORD-6006': { status: 'shipped', carrier: 'GLS', totalEur: 32.0, deliveredDaysAgo: null },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function lookupOrder({ orderId }) {
  await sleep(20 + Math.random() * 30);
  const order = ORDERS[orderId];
  if (order === undefined) throw new Error(`no order ${orderId}`);
  return { orderId, ...order };
}

export async function refundOrder({ orderId, reason }) {
  await sleep(40 + Math.random() * 40);
  const order = await lookupOrder({ orderId });
  if (order.deliveredDaysAgo !== null && order.deliveredDaysAgo * DAY > 30 * DAY)
    throw Object.assign(
      new Error(`return window closed: ${orderId} was delivered ${order.deliveredDaysAgo} days ago`),
      {
        code: 'refund_window_closed',
      },
    );
  return { orderId, refundedEur: order.totalEur, reason };
}

/** The tickets the agent works through; the local model server has a recorded conversation for each. */
export const TICKETS = [
  'Where is my order ORD-1001?',
  'Please refund order ORD-2002, it arrived damaged.',
  'I want my money back for ORD-3003.',
  'Can you cancel ORD-4004?',
  'ORD-5005 was charged twice!',
  'Any news on ORD-6006?',
];
