-- CONTRACT §19 (decision 169): each invoice and credit note keeps the seller and VAT rate it was
-- issued with. Documents issued before are left null and keep being drawn with the configured seller.
ALTER TABLE "billing_documents" ADD COLUMN "seller" jsonb;
