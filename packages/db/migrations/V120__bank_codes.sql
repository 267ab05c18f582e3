-- Banks as a common-code group (issue 24: "bank shown 004"): an agent's or a payment's bank code reads as the
-- bank's name in the user's language and is picked from a list. Codes are the KFTC bank codes the transfer
-- files carry; not a system group, so an administrator can add a bank.
INSERT INTO common_code_group (group_code, group_name, description, is_system, sort_order) VALUES
  ('BANK', 'Bank', 'agent.bank_code, payment.bank_code (KFTC bank code)', 'N', 900)
ON CONFLICT (group_code) DO NOTHING;

INSERT INTO common_code (group_code, code, code_name, code_name_en, tone, sort_order) VALUES
  ('BANK', '002', '산업은행', 'KDB Bank', 'plain', 1),
  ('BANK', '003', '기업은행', 'IBK Industrial Bank', 'plain', 2),
  ('BANK', '004', '국민은행', 'KB Kookmin Bank', 'plain', 3),
  ('BANK', '007', '수협은행', 'Suhyup Bank', 'plain', 4),
  ('BANK', '011', '농협은행', 'NongHyup Bank', 'plain', 5),
  ('BANK', '020', '우리은행', 'Woori Bank', 'plain', 6),
  ('BANK', '023', 'SC제일은행', 'SC First Bank', 'plain', 7),
  ('BANK', '027', '한국씨티은행', 'Citibank Korea', 'plain', 8),
  ('BANK', '031', 'iM뱅크', 'iM Bank', 'plain', 9),
  ('BANK', '032', '부산은행', 'Busan Bank', 'plain', 10),
  ('BANK', '034', '광주은행', 'Gwangju Bank', 'plain', 11),
  ('BANK', '035', '제주은행', 'Jeju Bank', 'plain', 12),
  ('BANK', '037', '전북은행', 'Jeonbuk Bank', 'plain', 13),
  ('BANK', '039', '경남은행', 'Kyongnam Bank', 'plain', 14),
  ('BANK', '045', '새마을금고', 'MG Saemaul Geumgo', 'plain', 15),
  ('BANK', '048', '신협', 'Shinhyup', 'plain', 16),
  ('BANK', '071', '우체국', 'Korea Post', 'plain', 17),
  ('BANK', '081', '하나은행', 'Hana Bank', 'plain', 18),
  ('BANK', '088', '신한은행', 'Shinhan Bank', 'plain', 19),
  ('BANK', '089', '케이뱅크', 'K Bank', 'plain', 20),
  ('BANK', '090', '카카오뱅크', 'KakaoBank', 'plain', 21),
  ('BANK', '092', '토스뱅크', 'Toss Bank', 'plain', 22)
ON CONFLICT DO NOTHING;
