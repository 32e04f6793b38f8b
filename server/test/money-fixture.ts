// The money fixture (one rounding rule, one CTR): November 2025, three advertisers whose
// month revenues round differently, monetized impressions below impressions on every row.
//   AdNova    0.4444 (PubA) + 0.4444 (PubB) + 0.4445 (PubA) = 1.3333 → 1,33
//   BidSphere 0.6666 (PubA) + 0.6667 (PubB)                  = 1.3333 → 1,33
//   Clickora  1.3334 (PubB)                                  = 1.3334 → 1,33
//   TOTAL                                                      4.0000 → 4,00 (the rows show 3,99)
// Clicks 49 over 6.250 monetized impressions (8.100 in all): CTR 0,78 %, never 0,60 %.
// Publishers: PubA 1.5555 → 1,56; PubB 2.4445 → 2,44. AdNova also earns 0.123457 on 2025-10-30
// and 2 on 2025-12-01 (other months).
export const FIXTURE = [
  'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,p_revenue,tq',
  '2025-11-03,AdNova,PubA,N-1,ES,search,a.com,1000,800,7,0.4444,0.3111,0.8',
  '2025-11-10,AdNova,PubB,N-2,MX,search,b.com,1200,900,9,0.4444,0.3111,0.7',
  '2025-11-17,AdNova,PubA,N-3,ES,social,a.com,900,850,3,0.4445,0.3112,0.9',
  '2025-11-04,BidSphere,PubA,N-4,ES,search,a.com,3000,2000,11,0.6666,0.4666,0.6',
  '2025-11-20,BidSphere,PubB,N-5,US,search,b.com,700,600,6,0.6667,0.4667,0.5',
  '2025-11-25,Clickora,PubB,N-6,US,social,b.com,1300,1100,13,1.3334,0.9334,0.75',
  '2025-10-30,AdNova,PubA,N-1,ES,search,a.com,333,300,3,0.123457,0.08642,0.81',
  '2025-12-01,AdNova,PubA,N-1,ES,search,a.com,500,400,4,2,1.4,0.8',
].join('\n');
export const NOVEMBER = { start_date: '2025-11-01', end_date: '2025-11-30' };
export const ADVERTISERS = ['AdNova', 'BidSphere', 'Clickora'];
